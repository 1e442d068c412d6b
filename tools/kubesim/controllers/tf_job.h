// training-operator's TFJob controller (kubeflow.org/v1), as v1.9.0 behaves: pods
// NAME-<type>-I (chief, evaluator, master, ps, worker) with the operator's labels and TF_CONFIG,
// one headless Service per pod, status conditions Created/Running/Restarting/Succeeded/Failed
// (success decided by the Chief/Master, else by worker 0 or, with successPolicy AllWorkers,
// by all workers), replicaStatuses, runPolicy.
//
// Pod failures: a pod Failed under restartPolicy Never, or ExitCode with a non-retryable exit
// code, fails the job; under OnFailure/Always, or ExitCode with a retryable code (>= 128), the
// pod is deleted and re-created (condition Restarting).
#pragma once

#include "kubesim/controllers/controller.h"

namespace kubesim {

class TFJobController : public Controller {
 public:
  explicit TFJobController(Context& ctx) : Controller(ctx, ctx.tfjobs) {}
  void reconcile(const std::string& ns, const std::string& name) override;

  // The pod / Service the operator creates for replica type rtype ("Chief", "PS", "Worker",
  // ...) index i of a defaulted job (tf_defaults).
  static json make_pod(const json& job, const std::string& rtype, int index);
  static json make_service(const json& job, const std::string& rtype, int index);
};

}  // namespace kubesim
