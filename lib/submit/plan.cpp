#include "submit/plan.h"

#include <cctype>

#include "core/errors.h"
#include "submit/parse.h"

namespace trainctl::submit {

namespace {

// The submit command of a trainer: pytorch, mpi or volcano.
std::string trainer_command(jobs::Trainer t) {
  switch (t) {
    case jobs::Trainer::MPI:
      return "mpi";
    case jobs::Trainer::Volcano:
      return "volcano";
    default:
      return "pytorch";
  }
}

// Checks the name against Kubernetes' limits on everything derived from it.
void check_name(const Plan& p) {
  const std::string& n = p.name;
  if (n.empty()) throw UsageError("--name is required");
  if (!is_dns1123_label(n) || !std::isalpha(static_cast<unsigned char>(n[0])))
    throw UsageError("invalid --name " + dq(n) +
                     ": use lower-case letters, digits and '-', starting with a letter and ending with a "
                     "letter or digit");
  std::vector<std::string> derived;
  switch (p.kind->trainer) {
    case jobs::Trainer::PyTorch:
      derived.push_back(n + "-master-0");
      if (p.workers > 1) derived.push_back(n + "-worker-" + std::to_string(p.workers - 2));
      break;
    case jobs::Trainer::MPI:
      derived.push_back(n + "-launcher-xxxxx");
      derived.push_back(n + "-worker-" + std::to_string(p.workers - 1));
      break;
    case jobs::Trainer::PyTorchNoOperator:
      derived.push_back(n + "-" + std::to_string(p.workers - 1) + "-xxxxx");
      break;
    case jobs::Trainer::Volcano:
      for (const auto& t : p.tasks)
        derived.push_back(n + "-" + t.name + "-" + std::to_string(t.replicas - 1));
      break;
  }
  if (p.tensorboard) derived.push_back(n + "-tensorboard");
  for (const auto& d : derived) {
    if (d.size() > 63)
      throw UsageError("--name " + dq(n) + " is too long: the derived name " + dq(d) + " would have " +
                       std::to_string(d.size()) + " characters (at most 63)");
  }
}

// Which job kind a command line asks for: submit pytorch --operator none is an Indexed Job.
const jobs::JobKind& resolve_kind(const SubmitOptions& o) {
  if (is_pytorch(o.trainer)) {
    if (o.operator_ == "none") return jobs::kind_for(jobs::Trainer::PyTorchNoOperator);
    if (!o.operator_.empty() && o.operator_ != "training-operator")
      throw UsageError("invalid --operator " + dq(o.operator_) + ": use none or training-operator");
  } else if (!o.operator_.empty()) {
    throw UsageError("--operator is only for submit pytorch");
  } else if (!o.worker_image.empty()) {
    throw UsageError("--worker-image is only for submit pytorch");
  }
  return jobs::kind_for(o.trainer);
}

}  // namespace

Plan make_plan(const SubmitOptions& o, const std::string& namespace_, std::vector<ConfigDir> config_dirs) {
  Plan p;
  p.kind = &resolve_kind(o);
  const jobs::Trainer trainer = p.kind->trainer;
  p.template_kind = trainer == jobs::Trainer::PyTorchNoOperator ? "pytorch-none" : trainer_command(trainer);
  p.name = o.name;
  p.namespace_ = namespace_;
  check_flags(o, trainer, namespace_);
  plan_pod(o, p);
  plan_volumes(o, std::move(config_dirs), p);
  plan_scheduling(o, p);
  add_implicit_annotations(o, p);
  check_name(p);
  // Arena's pytorchjob and mpijob commands refuse a submit without a command ("not found
  // command args"): the image's entrypoint is rarely a distributed training run, and a missing
  // command is most often a flag that swallowed it. Checked last, after every flag.
  if (trainer != jobs::Trainer::Volcano && p.command.empty())
    throw UsageError("submit " + trainer_command(trainer) +
                     " needs the command to run, as its last argument, e.g. \"python train.py\"");
  return p;
}

}  // namespace trainctl::submit
