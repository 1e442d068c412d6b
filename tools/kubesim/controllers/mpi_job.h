// mpi-operator's MPIJob controller (kubeflow.org/v2beta1): worker pods NAME-worker-I, a
// headless Service NAME, a ConfigMap NAME-config (hostfile with slotsPerWorker,
// discover_hosts.sh), and a batch/v1 Job NAME-launcher (its pod NAME-launcher-XXXXX comes
// from the Job controller) created once every worker runs (or at once with
// launcherCreationPolicy AtStartup). Labels training.kubeflow.org/{operator-name: mpi-operator,
// job-name, job-role: launcher|worker, replica-index}. Status: conditions Created/Running/
// Succeeded/Failed, replicaStatuses Launcher/Worker, startTime, completionTime.
// Workers run until the job ends (they only serve sshd), unless their template says otherwise.
#pragma once

#include "kubesim/controllers/controller.h"

namespace kubesim {

class MpiJobController : public Controller {
 public:
  explicit MpiJobController(Context& ctx) : Controller(ctx) {}
  const ResourceType* primary() const override { return m_ctx.mpijobs; }
  void reconcile(const std::string& ns, const std::string& name) override;

  static json make_worker(const json& job, int index, const std::string& group);
  static json make_launcher_job(const json& job, const std::string& group);
  static json make_config_map(const json& job);
};

}  // namespace kubesim
