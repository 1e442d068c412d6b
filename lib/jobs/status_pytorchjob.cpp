// PyTorchJob (kubeflow.org/v1) status and duration.
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
#include "jobs/status_rules.h"

namespace trainctl::jobs {

using nlohmann::json;

JobStatus kubeflow_conditions_status(const json& job) {
  if (condition_true(job, "Succeeded")) return JobStatus::Succeeded;
  if (condition_true(job, "Failed")) return JobStatus::Failed;
  if (condition_true(job, "Running")) return JobStatus::Running;
  if (condition_true(job, "Queuing")) return JobStatus::Queuing;
  return JobStatus::Pending;
}

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

}  // namespace

const KindStatusRules& pytorchjob_status_rules() {
  static const KindStatusRules rules{kubeflow_conditions_status, pytorchjob_times, nullptr,
                                     pytorchjob_duration};
  return rules;
}

}  // namespace trainctl::jobs
