// submit pytorch's torchrun flags (kinds/torchrun.h); the elastic ones are in
// pytorch_elastic.cpp.
#include "submit/kinds/torchrun.h"

#include <regex>

#include "core/errors.h"
#include "submit/flags.h"
#include "submit/kind_part.h"
#include "submit/parse.h"

namespace trainctl::submit {

void add_torchrun_flags(FlagSet& f, SubmitOptions& o, const SubmitKind::Rules& rules) {
  TorchrunOptions& t = set_kind_part<TorchrunOptions>(o);
  f.option("--nproc-per-node", t.nproc_per_node, "torchrun processes per pod: auto, cpu, gpu or N");
  add_worker_image_flag(f, o, rules);
  f.option("--api", t.api,
           "What the job is made as, trainer a TrainJob on the ClusterTrainingRuntime "
           "torch-distributed, training-operator a PyTorchJob, none an Indexed Job + headless "
           "Service (default: a PyTorchJob, or a TrainJob where the cluster serves only Kubeflow "
           "Trainer v2): trainer, training-operator or none");
  f.option("--operator", t.operator_,
           "none: run without the training-operator (Indexed Job + headless Service); "
           "the same as --api none");
  f.option("--master-port", t.master_port, "MASTER_PORT with --operator none").with_default();
}

void plan_torchrun(const SubmitOptions& options, Plan& plan) {
  const TorchrunOptions& o = kind_part<TorchrunOptions>(options);
  if (!o.nproc_per_node.empty()) {
    static const std::regex nproc("auto|cpu|gpu|[1-9][0-9]*");
    if (!std::regex_match(o.nproc_per_node, nproc))
      throw UsageError("invalid --nproc-per-node " + dq(o.nproc_per_node) +
                       ": use auto, cpu, gpu or a number");
  }
  if (o.master_port < 1 || o.master_port > 65535)
    throw UsageError("--master-port must be between 1 and 65535");
  TorchrunPlan& p = set_kind_part<TorchrunPlan>(plan);
  p.nproc_per_node = o.nproc_per_node;
  p.master_port = o.master_port;
}

}  // namespace trainctl::submit
