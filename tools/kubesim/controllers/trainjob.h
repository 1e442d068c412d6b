// The Kubeflow Trainer v2.3.0 TrainJob controller (kubeflow/trainer
// pkg/controller/trainjob_controller.go Reconcile), over the runtime machinery of
// trainer_build.h:
//  1. a TrainJob whose spec.managedBy is not trainer.kubeflow.org/trainjob-controller is left
//     alone; a Failed condition is dropped unless its reason is DeadlineExceeded;
//  2. an unsupported runtimeRef kind panics the reconcile upstream (setTrainJobStatus calls a
//     nil runtime): nothing is written, as in kubesim;
//  3. an unfinished TrainJob's objects are reconciled: the runtime is read from the snapshot
//     ConfigMap `<tj>-runtime-snapshot` (key runtime, YAML; owner, kind, group and name
//     checked; pkg/runtime/core/snapshot.go), or from the API and snapshotted; the objects of
//     trainer_build.h are applied (a PodGroup, the MPI Secret and hostfile, the JobSet). The
//     JobSet is created through JobSet's webhooks (defaults, vjobset.kb.io) and re-applied only
//     while the TrainJob or the JobSet is suspended (jobset.go Build). An error is the Warning
//     event TrainJobResourcesCreationFailed "TrainJob resources reconciliation failed: ERR"
//     (at most 950 characters of ERR, then " ..."), with no condition;
//  4. Suspended/True/Suspended "TrainJob is suspended" while spec.suspend, then
//     Suspended/False/Resumed "TrainJob is resumed";
//  5. the JobSet's Completed and Failed conditions become Complete and Failed (reason, message
//     and time kept), status.jobsStatus = the JobSet's replicatedJobsStatus (jobset.go Status);
//  6. spec.activeDeadlineSeconds, counted from creation or from the last resume and not while
//     suspended: Failed/DeadlineExceeded "TrainJob exceeded its active deadline", the JobSet
//     deleted.
// kubesim's fates (kubesim.trainctl.io/* annotations) of the TrainJob are copied to its JobSet,
// which gives them to its pods (jobset.h).
#pragma once

#include "kubesim/controllers/controller.h"
#include "kubesim/controllers/trainer_build.h"
#include "kubesim/controllers/trainer_model.h"

namespace kubesim {

class TrainJobController : public Controller {
 public:
  TrainJobController(Context& ctx, TrainerOptions options);
  void reconcile(const std::string& ns, const std::string& name) override;

 private:
  // NewObjects and apply; throws std::exception with the reconcile error.
  void reconcile_objects(const json& trainjob);
  json runtime_of(const json& trainjob);
  void apply_jobset(json jobset, const json& trainjob);
  void apply_object(const json& obj);
  // setTrainJobStatus and reconcileDeadline on status; false when the JobSet is missing.
  void trainjob_status(const json& trainjob, json& status);
  void deadline(const json& trainjob, json& status);

  TrainerTypes m_t;
  TrainerOptions m_options;
};

// The runtime a TrainJob refers to (defaults applied), as the Trainer reads it from the API; or
// null when it does not exist. Shared with Kueue's TrainJob integration.
json trainjob_runtime(const Store& store, const TrainerTypes& t, const json& trainjob);

}  // namespace kubesim
