// Volcano Job (batch.volcano.sh/v1alpha1): its resource and labels, status (from
// status.state.phase), duration and requested GPUs.
//
// Pods: volcano.sh/job-name; the chief is index 0 (volcano.sh/task-index) of the first task
// in spec.tasks: every task counts its indexes from 0. A pod's task is volcano.sh/task-spec, a
// label from v1.4 and an annotation before (pkg/controllers/job/job_controller_util.go
// createJobPod); the index, before v1.9, is read from the pod's name. Requested GPUs: each
// task's replicas times its pod template's GPUs.
//
// The phases (volcano-sh/volcano staging/src/volcano.sh/apis/pkg/apis/batch/v1alpha1/job.go)
// and where the job controller goes from each (pkg/controllers/job/state/*.go, v1.10.0 and
// v1.15.0 alike):
//   Pending                            -> PENDING (also no phase yet)
//   Running                            -> RUNNING
//   Completing: required tasks done, the rest being killed; next Completed -> RUNNING
//   Completed                          -> SUCCEEDED
//   Restarting: all pods killed to be made again; next Pending, or Failed once retryCount
//     reaches maxRetry (restarting.go) -> PENDING, as a restarting PyTorchJob is
//   Failed (retries exhausted)         -> FAILED
//   Aborting: aborted (vcctl job suspend's AbortJob Command, or a policy's AbortJob action),
//     waiting for its pods to go; next Aborted (aborting.go) -> SUSPENDED
//   Aborted: ResumeJob takes it to Restarting (aborted.go) -> SUSPENDED
//   Terminating: terminated, waiting for its pods to go; next Terminated (terminating.go)
//                                      -> FAILED
//   Terminated                         -> FAILED
//   anything else                      -> UNKNOWN
// Terminated, Completed and Failed are the controller's finished states (state/factory.go);
// a Terminating job runs no more and ends Terminated, so it has failed already. An Aborted
// job is not finished: vcctl job resume (a ResumeJob Command) restarts it. (Arena,
// pkg/training/trainer_volcano.go, prints the phases other than Pending, Running, Completed
// and Failed as they are.)
//
// The failure (status.state): reason and message when set (v1.15.0's controller sets neither),
// else the phase and what it means; since: lastTransitionTime.
//
// Duration: finished (SUCCEEDED or FAILED): status.state.lastTransitionTime - creation;
// otherwise now - creation.
#include "jobs/json_util.h"
#include "jobs/kinds/kinds.h"
#include "jobs/kinds/shared_rules.h"
#include "jobs/pod_summary.h"
#include "jobs/status_rules.h"
#include "jobs/suspend.h"

namespace trainctl::jobs {

using nlohmann::json;

namespace {

// The failed phases and what each means; the job controller writes no reason or message into
// status.state (v1.15.0 sets only the phase: pkg/controllers/job/state/*.go), so these stand in.
const char* volcano_failed_phase_meaning(const std::string& phase) {
  if (phase == "Failed") return "restarted maxRetry times and failed again (restarting.go)";
  if (phase == "Terminating" || phase == "Terminated")
    return "terminated by a lifecycle policy's TerminateJob action (a pod failed or was evicted, or a task "
           "completed)";
  return nullptr;
}

// Aborting and Aborted: suspended (AbortJob), until a ResumeJob (aborting.go, aborted.go).
bool volcano_suspended_phase(const std::string& phase) { return phase == "Aborting" || phase == "Aborted"; }

std::optional<ObjectFailure> volcano_job_failure(const json& job) {
  const json& state = at_path(job, {"status", "state"});
  const std::string phase = str(state, "phase");
  const char* meaning = volcano_failed_phase_meaning(phase);
  if (!meaning) return std::nullopt;
  const std::string reason = str(state, "reason"), message = str(state, "message");
  return ObjectFailure{reason.empty() ? phase : reason, message.empty() ? meaning : message,
                       str(state, "lastTransitionTime")};
}

JobStatus volcano_job_status(const json& job) {
  const std::string phase = str(at_path(job, {"status", "state"}), "phase");
  if (phase.empty() || phase == "Pending" || phase == "Restarting") return JobStatus::Pending;
  if (phase == "Running" || phase == "Completing") return JobStatus::Running;
  if (phase == "Completed") return JobStatus::Succeeded;
  if (volcano_suspended_phase(phase)) return JobStatus::Suspended;
  if (volcano_failed_phase_meaning(phase)) return JobStatus::Failed;
  return JobStatus::Unknown;
}

StatusTimes volcano_job_times(const json& job) {
  return {std::nullopt, std::nullopt,
          parse_time(str(at_path(job, {"status", "state"}), "lastTransitionTime"))};
}

std::chrono::seconds volcano_job_duration(const StatusTimes& t, JobStatus status, TimePoint created,
                                          const ChiefPod*, TimePoint now) {
  return seconds_between(created, is_finished(status) ? t.ended.value_or(now) : now);
}

constexpr KindStatusRules kVolcanoJobRules{volcano_job_status, volcano_job_times, nullptr,
                                           volcano_job_duration, volcano_job_failure};

long long volcano_job_spec_gpus(const json& spec) {
  long long total = 0;
  for (const auto& t : at(spec, "tasks")) total += replica_gpus(t);
  return total;
}

std::string volcano_job_chief_task(const json& spec) {
  const auto& tasks = at(spec, "tasks");
  return tasks.is_array() && !tasks.empty() ? str(tasks[0], "name") : "";
}

// Volcano before v1.9 sets no task-index label; its pods are named JOB-TASK-INDEX
// (pkg/controllers/job/helpers MakePodName).
std::string volcano_task_index_from_name(const PodSummary& pod) {
  const std::string& job = pod.label("volcano.sh/job-name");
  const std::string& task = pod.label("volcano.sh/task-spec");
  const std::string& name = pod.instance.name;
  const std::string prefix = job + "-" + task + "-";
  if (!job.empty() && !task.empty() && name.size() > prefix.size() &&
      name.compare(0, prefix.size(), prefix) == 0 &&
      name.find_first_not_of("0123456789", prefix.size()) == std::string::npos)
    return name.substr(prefix.size());
  return "";
}

// A pod's task (volcano.sh/task-spec) and index (volcano.sh/task-index); before v1.9 the index
// only in the pod's name, JOB-TASK-INDEX.
ReplicaPlace volcano_job_replica(const json& pod, const std::string& job) {
  ReplicaPlace r{replica_label(pod, "volcano.sh/task-spec"),
                 replica_number(replica_label(pod, "volcano.sh/task-index"))};
  const std::string name = str(at(pod, "metadata"), "name");
  const std::string prefix = job + "-" + r.role + "-";
  if (!r.rank && !r.role.empty() && name.rfind(prefix, 0) == 0)
    r.rank = replica_number(name.substr(prefix.size()));
  return r;
}

}  // namespace

JobKind volcanojob_kind() {
  return {.name = "volcanojob",
          .title = "Volcano Job",
          .type = "volcanojob",
          .trainer_name = "VOLCANOJOB",
          .created_by = "VolcanoJob",
          .resource = {"batch.volcano.sh", "v1alpha1", "jobs", "Job"},
          .list_selector = "",
          .pod_job_label = "volcano.sh/job-name",
          .pod_extra_selector = "",
          .chief_label = "volcano.sh/task-index",
          .chief_value = "0",
          .chief_fallbacks = {},
          .pod_task_label = "volcano.sh/task-spec",
          .pod_labels_from_annotations = {"volcano.sh/task-spec"},
          .type_names = {"volcanojob", "volcano", "vj"},
          .status_rules = &kVolcanoJobRules,
          .spec_gpus = volcano_job_spec_gpus,
          .chief_task = volcano_job_chief_task,
          .chief_value_from_pod = volcano_task_index_from_name,
          .elastic_workers = nullptr,
          .replica = volcano_job_replica,
          .suspend = &kVolcanoCommand};
}

}  // namespace trainctl::jobs
