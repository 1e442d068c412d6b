// mpi-operator v0.8.0's MPIJob controller (kubeflow.org/v2beta1,
// pkg/controller/mpi_job_controller.go): worker pods NAME-worker-I, a headless Service NAME,
// a ConfigMap NAME-config (hostfile, discover_hosts.sh of the running workers) and a
// batch/v1 Job NAME-launcher (its pod NAME-launcher-XXXXX comes from the Job controller),
// created at once (launcherCreationPolicy AtStartup, the default) or once every worker pod is
// Ready (WaitForWorkersReady). The launcher Job carries runPolicy's backoffLimit,
// activeDeadlineSeconds and ttlSecondsAfterFinished, so it retries its pod as a batch Job
// does; the MPIJob succeeds or fails when that Job does. Status: conditions Created/Running/
// Succeeded/Failed, replicaStatuses Launcher/Worker, startTime, completionTime.
// Workers run until the job ends (they only serve sshd), unless their template says otherwise.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "kubesim/controllers/controller.h"

namespace kubesim {

class MpiJobController : public Controller {
 public:
  explicit MpiJobController(Context& ctx) : Controller(ctx, ctx.mpijobs) {}
  void reconcile(const std::string& ns, const std::string& name) override;

  // SetDefaults_MPIJob (pkg/apis/kubeflow/v2beta1/default.go), applied on a copy.
  static json defaults(const json& job);
  static int64_t worker_replicas(const json& defaulted_job);
  // The objects, from a defaulted job (mpi_objects.cpp).
  static json make_worker(const json& job, int index, const std::string& group);
  static json make_launcher_job(const json& job, const std::string& group);
  static json make_config_map(const json& job, const std::vector<std::string>& running_workers);
  static json make_service(const json& job);

 private:
  // The steps of syncHandler, named after mpi-operator's functions (mpi_job.cpp).
  // getLauncherJob: NAME-launcher when this MPIJob controls it, else null.
  std::shared_ptr<const json> get_launcher_job(const json& job);
  void get_or_create_service(const json& job);
  // getOrCreateConfigMap + updateDiscoverHostsInConfigMap: the hostfile of the running workers.
  void get_or_create_config_map(const json& job);
  // getOrCreateWorker: surplus workers deleted, missing ones created; the workers in index order.
  std::vector<std::shared_ptr<const json>> get_or_create_workers(const json& job, const std::string& group);
  // updateMPIJobStatus: replicaStatuses and the Succeeded/Failed/Running conditions.
  void update_status(const json& job, const json* launcher, const std::vector<std::shared_ptr<const json>>& workers,
                     json& status, const std::string& now);
};

}  // namespace kubesim
