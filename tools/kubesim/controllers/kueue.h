// A minimal Kueue v0.19.2, active when its CRDs are served (kubesim --schemas DIR):
//  - KueueJobController (one per managed job resource, jobframework/reconciler.go): a job
//    with the label kueue.x-k8s.io/queue-name gets a Workload (named as
//    jobframework/workload_names.go names it, owned by the job, one podSet per replica
//    type: jobs/kubeflow/kubeflowjob, jobs/mpijob, jobs/job); the job stays suspended until
//    its Workload is admitted, is suspended again when it is not, and marks the Workload
//    Finished when it ends.
//  - KueueQueueController (on ClusterQueues, LocalQueues and Workloads, the scheduler of
//    pkg/scheduler/scheduler.go with one flavor per resource): pending Workloads in queue
//    order (kueue_model.h) get QuotaReserved and Admitted while the ClusterQueue's nominal
//    quota minus what admitted Workloads use covers their requests; under StrictFIFO the
//    first that does not fit blocks the rest, under BestEffortFIFO (the default) it is
//    passed over. The status of ClusterQueues (pendingWorkloads, reservingWorkloads,
//    admittedWorkloads, flavorsReservation, flavorsUsage, Active) and LocalQueues follows
//    (pkg/controller/core/clusterqueue_controller.go, localqueue_controller.go).
#pragma once

#include "kubesim/controllers/controller.h"
#include "kubesim/kueue_model.h"

namespace kubesim {

class KueueJobController : public Controller {
 public:
  // job: a managed job resource (kueue_manages) or nullptr.
  KueueJobController(Context& ctx, const ResourceType* job);
  void reconcile(const std::string& ns, const std::string& name) override;

 private:
  KueueTypes m_kueue;
};

class KueueQueueController : public Controller {
 public:
  // primary: the ClusterQueues, LocalQueues or Workloads.
  KueueQueueController(Context& ctx, const ResourceType* primary);
  void reconcile(const std::string& ns, const std::string& name) override;

 private:
  KueueTypes m_kueue;
};

// The Workload of a job as Kueue makes it (without status); exposed for tests.
json kueue_workload_for(const ResourceType& rt, const json& job);
// jobframework GetWorkloadNameForOwnerWithGVK: lower(kind)-name (at most 247 characters), a
// dash and the first 5 hex digits of sha1(kind \n group \n name \n uid).
std::string kueue_workload_name(const std::string& kind, const std::string& group, const std::string& name,
                                const std::string& uid);
// One admission pass over every ClusterQueue, then their and their LocalQueues' status.
void kueue_admit(Context& ctx, const KueueTypes& t);

}  // namespace kubesim
