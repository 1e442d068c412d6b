#include "submit/submit_kind.h"

#include "core/errors.h"
#include "submit/kinds/kinds.h"
#include "submit/parse.h"

namespace trainctl::submit {

SubmitKind::SubmitKind(jobs::Trainer trainer, Rules r) : job(jobs::kind_for(trainer)), rules(std::move(r)) {}

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
      break;  // not submitted through a SubmitKind
  }
  throw Error("unknown job kind");
}

const SubmitKind& submit_kind_for(const SubmitOptions& o) {
  // submit pytorch --operator none is an Indexed Job.
  if (o.trainer == jobs::Trainer::PyTorch || o.trainer == jobs::Trainer::PyTorchNoOperator) {
    if (o.operator_ == "none") return kinds::pytorch_none();
    if (!o.operator_.empty() && o.operator_ != "training-operator")
      throw UsageError("invalid --operator " + dq(o.operator_) + ": use none or training-operator");
    return kinds::pytorchjob();
  }
  const SubmitKind& kind = submit_kind_for(o.trainer);
  if (!o.operator_.empty()) throw UsageError("--operator is only for submit pytorch");
  if (!o.worker_image.empty() && kind.rules.worker_image == WorkerImage::Refused)
    throw UsageError("--worker-image is only for submit pytorch and submit tf");
  return kind;
}

}  // namespace trainctl::submit
