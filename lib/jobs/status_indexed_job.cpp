// Operator-free PyTorch (an Indexed batch/v1 Job) status and duration, from the Job's
// conditions.
//
// The conditions the job controller writes (k8s.io/api batch/v1 types.go JobConditionType;
// kubernetes pkg/controller/job/job_controller.go newFailureCondition, newSuccessCondition,
// enactJobFinished): Complete and Failed are the terminal ones; Suspended. From Kubernetes
// 1.31 (delayTerminalCondition: feature gates JobManagedBy or JobPodReplacementPolicy) the
// controller first writes the interim FailureTarget ("the job is about to fail") or
// SuccessCriteriaMet ("the Job has been succeeded"), and Failed or Complete only once no pod
// is terminating. A Job never holds Complete with Failed or FailureTarget (types.go
// JobStatus.Conditions), so the interim condition already says how the Job ends.
//
// Status: Complete or SuccessCriteriaMet -> SUCCEEDED; Failed or FailureTarget -> FAILED;
// status.active > 0 -> RUNNING; otherwise PENDING (a suspended Job too).
//
// Duration: 0 without status.startTime; completionTime - startTime when set (the controller
// sets completionTime with Complete only); SUCCEEDED or FAILED without it: the transition of
// Failed, else FailureTarget, else SuccessCriteriaMet - startTime; otherwise now - startTime.
#include "jobs/json_util.h"
#include "jobs/status_rules.h"

namespace trainctl::jobs {

using nlohmann::json;

namespace {

JobStatus indexed_job_status(const json& job) {
  if (condition_true(job, "Complete") || condition_true(job, "SuccessCriteriaMet"))
    return JobStatus::Succeeded;
  if (condition_true(job, "Failed") || condition_true(job, "FailureTarget")) return JobStatus::Failed;
  const json& active = at(at(job, "status"), "active");
  return active.is_number() && active.get<long long>() > 0 ? JobStatus::Running : JobStatus::Pending;
}

StatusTimes indexed_job_times(const json& job) {
  const json& status = at(job, "status");
  auto ended = true_condition_since(job, "Failed");
  if (!ended) ended = true_condition_since(job, "FailureTarget");
  if (!ended) ended = true_condition_since(job, "SuccessCriteriaMet");
  return {parse_time(str(status, "startTime")), parse_time(str(status, "completionTime")), ended};
}

std::chrono::seconds indexed_job_duration(const StatusTimes& t, JobStatus status, TimePoint, const ChiefPod*,
                                          TimePoint now) {
  if (!t.start) return std::chrono::seconds(0);
  if (t.completion) return seconds_between(*t.start, *t.completion);
  if (is_finished(status)) return seconds_between(*t.start, t.ended.value_or(now));
  return seconds_between(*t.start, now);
}

}  // namespace

const KindStatusRules& indexed_job_status_rules() {
  static const KindStatusRules rules{indexed_job_status, indexed_job_times, nullptr, indexed_job_duration};
  return rules;
}

}  // namespace trainctl::jobs
