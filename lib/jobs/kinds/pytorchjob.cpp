// PyTorchJob (kubeflow.org/v1), made by the training-operator: its resource and labels, status,
// duration and requested GPUs.
//
// Pods: training.kubeflow.org/job-name and operator-name=pytorchjob-controller; the chief is
// the master (replica-type=master). Requested GPUs: spec.pytorchReplicaSpecs, each role's
// replicas times its pod template's GPUs.
//
// The conditions training-operator v1.9.0 writes (pkg/apis/kubeflow.org/v1/common_types.go):
// Created on create; Running when the master has a running pod; Restarting when a replica
// with a restart policy other than Never failed; Succeeded; Failed; Suspended
// (pytorch/pytorchjob_controller.go UpdateJobStatus, common/job.go ReconcileJobs).
// pkg/util/status.go setCondition/filterOutCondition: Restarting removes Running (and Running
// removes Restarting); Succeeded and Failed set Running to False; nothing changes once Failed.
// Suspension sets Running to False.
//
// Arena's status (pkg/training/trainer_tensorflow.go getStatus, used by trainer_pytorch.go):
// the first of Succeeded, Failed, Running, Queuing whose condition is True, else PENDING. So a
// restarting or suspended job is PENDING until the master runs again. No upstream operator
// sets Queuing (docs/operators.md §1.6); Arena's vendored operator fork does.
//
// Duration (trainer_pytorch.go Duration): 0 without status.startTime; completionTime -
// startTime when set; FAILED: the chief pod's latest condition transition - creation (else
// the Failed condition's transition); otherwise now - startTime.
#include "jobs/json_util.h"
#include "jobs/kinds/kinds.h"
#include "jobs/kinds/shared_rules.h"
#include "jobs/status_rules.h"

namespace trainctl::jobs {

using nlohmann::json;

namespace {

StatusTimes pytorchjob_times(const json& job) {
  const json& status = at(job, "status");
  return {parse_time(str(status, "startTime")), parse_time(str(status, "completionTime")),
          true_condition_since(job, "Failed")};
}

std::chrono::seconds pytorchjob_duration(const StatusTimes& t, JobStatus status, TimePoint created,
                                         const ChiefPod* chief, TimePoint now) {
  if (!t.start) return std::chrono::seconds(0);
  if (t.completion) return seconds_between(*t.start, *t.completion);
  if (status == JobStatus::Failed) {
    auto end = chief ? chief->latest_transition : std::nullopt;
    if (!end) end = t.ended;
    return seconds_between(created, end.value_or(now));
  }
  return seconds_between(*t.start, now);
}

constexpr KindStatusRules kPyTorchJobRules{kubeflow_conditions_status, pytorchjob_times, nullptr,
                                           pytorchjob_duration};

long long pytorchjob_spec_gpus(const json& spec) { return replica_map_gpus(at(spec, "pytorchReplicaSpecs")); }

}  // namespace

JobKind pytorchjob_kind() {
  return {.trainer = Trainer::PyTorch,
          .type = "pytorchjob",
          .trainer_name = "PYTORCHJOB",
          .created_by = "PyTorchJob",
          .resource = {"kubeflow.org", "v1", "pytorchjobs", "PyTorchJob"},
          .list_selector = "",
          .pod_job_label = "training.kubeflow.org/job-name",
          .pod_extra_selector = "training.kubeflow.org/operator-name=pytorchjob-controller",
          .chief_label = "training.kubeflow.org/replica-type",
          .chief_value = "master",
          .chief_fallbacks = {},
          .pod_task_label = "",
          .pod_labels_from_annotations = {},
          .type_names = {"pytorchjob", "pytorch", "py"},
          .status_rules = &kPyTorchJobRules,
          .spec_gpus = pytorchjob_spec_gpus,
          .chief_task = no_chief_task,
          .chief_value_from_pod = nullptr};
}

}  // namespace trainctl::jobs
