#include "submit/submit_kind.h"

#include "core/errors.h"
#include "submit/kinds/kinds.h"
#include "submit/parse.h"

namespace trainctl::submit {

SubmitKind::SubmitKind(jobs::Trainer trainer, Rules r) : job(jobs::kind_for(trainer)), rules(std::move(r)) {}
SubmitKind::SubmitKind(const jobs::JobKind& j, Rules r) : job(j), rules(std::move(r)) {}

void SubmitKind::plan_gang(const SubmitOptions& o, Plan& p) const { plan_worker_gang(o, p); }

int SubmitKind::expected_pods(const SubmitOptions& o, const Plan&) const {
  return o.workers + rules.launcher_pods;
}

long long SubmitKind::requested_gpus(const Plan& p) const {
  return static_cast<long long>(p.expected_pods - rules.launcher_pods) * p.gpus;
}

const SubmitKind& submit_kind_for(jobs::Trainer trainer) {
  switch (trainer) {
    case jobs::Trainer::PyTorch:
      return kinds::pytorchjob();
    case jobs::Trainer::MPI:
      return kinds::mpijob();
    case jobs::Trainer::Volcano:
      return kinds::volcanojob();
    case jobs::Trainer::PyTorchNoOperator:
      return kinds::pytorch_none();
    case jobs::Trainer::TF:
      return kinds::tfjob();
    case jobs::Trainer::TrainJob:
      return kinds::trainjob();
  }
  throw Error("unknown job kind");
}

const SubmitKind& submit_kind_for(const SubmitOptions& o) {
  // submit pytorch --api none (--operator none) is an Indexed Job, --api trainer a TrainJob.
  if (o.trainer == jobs::Trainer::PyTorch || o.trainer == jobs::Trainer::PyTorchNoOperator) {
    if (!o.operator_.empty() && o.operator_ != "none" && o.operator_ != "training-operator")
      throw UsageError("invalid --operator " + dq(o.operator_) + ": use none or training-operator");
    if (!o.api.empty() && o.api != "none" && o.api != "training-operator" && o.api != "trainer")
      throw UsageError("invalid --api " + dq(o.api) + ": use trainer, training-operator or none");
    if (!o.api.empty() && !o.operator_.empty() && o.api != o.operator_)
      throw UsageError("--api " + o.api + " and --operator " + o.operator_ + " disagree: give --api only");
    const std::string api = o.api.empty() ? o.operator_ : o.api;
    if (api == "none") return kinds::pytorch_none();
    if (api == "trainer") return kinds::trainjob();
    return kinds::pytorchjob();
  }
  const SubmitKind& kind = submit_kind_for(o.trainer);
  if (!o.operator_.empty()) throw UsageError("--operator is only for submit pytorch");
  if (!o.worker_image.empty() && kind.rules.worker_image == WorkerImage::Refused)
    throw UsageError("--worker-image is only for submit pytorch and submit tf");
  return kind;
}

}  // namespace trainctl::submit
