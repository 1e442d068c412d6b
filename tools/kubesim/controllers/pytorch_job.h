// training-operator's PyTorchJob controller (kubeflow.org/v1), as v1.9.0 behaves:
// pods NAME-master-0 / NAME-worker-I with the operator's labels and env (MASTER_ADDR,
// MASTER_PORT, WORLD_SIZE, RANK, PYTHONUNBUFFERED, PET_*), one headless Service per pod,
// status conditions Created/Running/Restarting/Succeeded/Failed, replicaStatuses, runPolicy.
//
// Simulation semantics for pod failures: a pod Failed with exit code 1 (outcome "fail") is a
// permanent failure and fails the job; a pod Failed with a retryable exit code (137, outcome
// "crash" under restartPolicy ExitCode) is deleted and re-created (condition Restarting).
#pragma once

#include "kubesim/controllers/controller.h"

namespace kubesim {

class PyTorchJobController : public Controller {
 public:
  explicit PyTorchJobController(Context& ctx) : Controller(ctx, ctx.pytorchjobs) {}
  void reconcile(const std::string& ns, const std::string& name) override;

  // The pod the operator creates for replica rtype ("Master"/"Worker") index i.
  static json make_pod(const json& job, const std::string& rtype, int index);
  static json make_service(const json& job, const std::string& rtype, int index);
};

}  // namespace kubesim
