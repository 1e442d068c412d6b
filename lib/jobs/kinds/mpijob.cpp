// MPIJob (kubeflow.org/v2beta1), made by mpi-operator: its resource and labels, status,
// duration and requested GPUs.
//
// Pods: training.kubeflow.org/job-name and operator-name=mpi-operator; the chief is the
// launcher (job-role=launcher). Requested GPUs: spec.mpiReplicaSpecs, each role's replicas
// times its pod template's GPUs.
//
// The conditions mpi-operator v0.8.0 writes (pkg/controller/mpi_job_controller.go
// updateMPIJobStatus, updateMPIJobFailedStatus; mpi_job_controller_status.go): Created on the
// first sync; Running when a launcher pod runs and every worker pod runs; Succeeded when the
// launcher Job is Complete; Failed when it is Failed or a worker was evicted; Suspended, with
// Running False. Restarting is declared and never set. Succeeded and Failed set Running to
// False (filterOutCondition). v2beta1 has no status.launcherStatus; v1alpha1 had one
// (mpi-operator v0.2.3 pkg/apis/kubeflow/v1alpha1/types.go), which Arena reads.
//
// Status: the kubeflow.org conditions as for PyTorchJob; else launcherStatus Succeeded or
// Failed; and, once the chief is known, a launcher pod that has left Pending makes a PENDING
// or QUEUING job RUNNING (Arena's trainer_mpi.go GetStatus / isPending: RUNNING unless the
// launcher is missing or Pending).
//
// Duration (trainer_mpi.go Duration): completionTime - creation when set; FAILED: the Failed
// condition's transition - creation; otherwise now - creation.
#include "jobs/json_util.h"
#include "jobs/kinds/kinds.h"
#include "jobs/kinds/shared_rules.h"
#include "jobs/status_rules.h"
#include "jobs/suspend.h"

namespace trainctl::jobs {

using nlohmann::json;

namespace {

JobStatus mpijob_status(const json& job) {
  const JobStatus s = kubeflow_conditions_status(job);
  if (is_finished(s)) return s;
  const std::string launcher = str(at(job, "status"), "launcherStatus");
  if (launcher == "Succeeded") return JobStatus::Succeeded;
  if (launcher == "Failed") return JobStatus::Failed;
  return s;
}

JobStatus mpijob_with_chief(JobStatus s, const ChiefPod* launcher) {
  if ((s == JobStatus::Pending || s == JobStatus::Queuing) && launcher && launcher->left_pending)
    return JobStatus::Running;
  return s;
}

std::chrono::seconds mpijob_duration(const StatusTimes& t, JobStatus status, TimePoint created,
                                     const ChiefPod*, TimePoint now) {
  if (t.completion) return seconds_between(created, *t.completion);
  if (status == JobStatus::Failed) return seconds_between(created, t.ended.value_or(now));
  return seconds_between(created, now);
}

// The Failed condition, else v1alpha1's launcherStatus Failed, which carries no reason.
std::optional<ObjectFailure> mpijob_failure(const json& job) {
  if (auto f = kubeflow_failure(job)) return f;
  if (is_finished(kubeflow_conditions_status(job))) return std::nullopt;
  if (str(at(job, "status"), "launcherStatus") == "Failed")
    return ObjectFailure{"LauncherFailed", "the launcher failed (status.launcherStatus)", ""};
  return std::nullopt;
}

constexpr KindStatusRules kMPIJobRules{mpijob_status, kubeflow_times, mpijob_with_chief, mpijob_duration,
                                       mpijob_failure};

long long mpijob_spec_gpus(const json& spec) { return replica_map_gpus(at(spec, "mpiReplicaSpecs")); }

// A pod's job-role (launcher, worker) and replica-index; the launcher, which has no index in
// v2beta1 (mpi-operator v0.8.0 pkg/controller/mpi_job_controller.go: newLauncherPodTemplate
// sets defaultLabels, job-role only; newWorker adds replica-index), is 0.
ReplicaPlace mpijob_replica(const json& pod, const std::string&) {
  ReplicaPlace r{replica_label(pod, "training.kubeflow.org/job-role"),
                 replica_number(replica_label(pod, "training.kubeflow.org/replica-index"))};
  if (!r.rank && r.role == "launcher") r.rank = 0;
  return r;
}

}  // namespace

JobKind mpijob_kind() {
  return {.name = "mpijob",
          .title = "MPIJob",
          .type = "mpijob",
          .trainer_name = "MPIJOB",
          .created_by = "MPIJob",
          .resource = {"kubeflow.org", "v2beta1", "mpijobs", "MPIJob"},
          .list_selector = "",
          .pod_job_label = "training.kubeflow.org/job-name",
          .pod_extra_selector = "training.kubeflow.org/operator-name=mpi-operator",
          .chief_label = "training.kubeflow.org/job-role",
          .chief_value = "launcher",
          .chief_fallbacks = {},
          .pod_task_label = "",
          .pod_labels_from_annotations = {},
          .type_names = {"mpijob", "mpi", "mj"},
          .status_rules = &kMPIJobRules,
          .spec_gpus = mpijob_spec_gpus,
          .chief_task = no_chief_task,
          .chief_value_from_pod = nullptr,
          .elastic_workers = nullptr,
          .replica = mpijob_replica,
          .suspend = &kRunPolicySuspend};
}

}  // namespace trainctl::jobs
