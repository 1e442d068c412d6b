// Operator-free PyTorch: an Indexed batch/v1 Job plus a headless Service, made by trainctl.
// Its resource and labels, status (from the Job's conditions), duration and requested GPUs.
//
// It shares batch/v1 Jobs with others, so its list selects app=pytorchjob and
// trainctl.io/operator=none. Its pods are found by the job controller's legacy `job-name`
// label, which every Kubernetes release sets (batch.kubernetes.io/job-name only from 1.27);
// the chief by its completion index, batch.kubernetes.io/job-completion-index, a label from
// Kubernetes 1.28 and an annotation since 1.21 (pod_labels_from_annotations). --type
// pytorchjob reaches it with the PyTorchJob kind (kinds_for_type). Requested GPUs:
// spec.completions (else parallelism, else 1) times the pod template's GPUs.
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
// Suspended True (the controller's syncJob with spec.suspend: JobSuspended) -> SUSPENDED, in a
// Kueue queue PENDING (suspended_status);
// status.active > 0 -> RUNNING; otherwise PENDING.
//
// Duration: 0 without status.startTime; completionTime - startTime when set (the controller
// sets completionTime with Complete only); SUCCEEDED or FAILED without it: the transition of
// Failed, else FailureTarget, else SuccessCriteriaMet - startTime; otherwise now - startTime.
#include "jobs/gpu.h"
#include "jobs/json_util.h"
#include "jobs/kinds/kinds.h"
#include "jobs/kinds/shared_rules.h"
#include "jobs/status_rules.h"
#include "jobs/suspend.h"

namespace trainctl::jobs {

using nlohmann::json;

namespace {

JobStatus indexed_job_status(const json& job) {
  if (condition_true(job, "Complete") || condition_true(job, "SuccessCriteriaMet"))
    return JobStatus::Succeeded;
  if (condition_true(job, "Failed") || condition_true(job, "FailureTarget")) return JobStatus::Failed;
  if (condition_true(job, "Suspended")) return suspended_status(job);
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

// Failed, else the interim FailureTarget the controller writes first (1.31+).
std::optional<ObjectFailure> indexed_job_failure(const json& job) {
  if (condition_true(job, "Complete") || condition_true(job, "SuccessCriteriaMet")) return std::nullopt;
  if (auto f = condition_failure(job, "Failed")) return f;
  return condition_failure(job, "FailureTarget");
}

constexpr KindStatusRules kIndexedJobRules{indexed_job_status, indexed_job_times, nullptr, indexed_job_duration,
                                           indexed_job_failure};

long long indexed_job_spec_gpus(const json& spec) {
  const auto& c = at(spec, "completions");
  const auto& p = at(spec, "parallelism");
  long long n = c.is_number() ? c.get<long long>() : (p.is_number() ? p.get<long long>() : 1);
  return n * spec_gpus(at_path(spec, {"template", "spec"}));
}

// Completion index 0 is master-0, index i worker-(i-1), as the PyTorchJob it stands for would
// name them; no role without the index.
ReplicaPlace indexed_job_replica(const json& pod, const std::string&) {
  const auto i = replica_number(replica_label(pod, "batch.kubernetes.io/job-completion-index"));
  if (!i) return {};
  return {*i == 0 ? "master" : "worker", *i == 0 ? 0 : *i - 1};
}

}  // namespace

JobKind pytorch_none_kind() {
  return {.name = "batchjob",
          .title = "Indexed Job",
          .type = "pytorchjob",
          .trainer_name = "PYTORCHJOB",
          .created_by = "PyTorchJob",
          .resource = {"batch", "v1", "jobs", "Job"},
          .list_selector = "app=pytorchjob,trainctl.io/operator=none",
          .pod_job_label = "job-name",
          .pod_extra_selector = "",
          .chief_label = "batch.kubernetes.io/job-completion-index",
          .chief_value = "0",
          .chief_fallbacks = {},
          .pod_task_label = "",
          .pod_labels_from_annotations = {"batch.kubernetes.io/job-completion-index"},
          .type_names = {},
          .status_rules = &kIndexedJobRules,
          .spec_gpus = indexed_job_spec_gpus,
          .chief_task = no_chief_task,
          .chief_value_from_pod = nullptr,
          .elastic_workers = nullptr,
          .replica = indexed_job_replica,
          .suspend = &kSpecSuspend,
          // JobSet labels its Jobs' pods jobset.sigs.k8s.io/jobset-name (jobset
          // jobset_controller.go labelAndAnnotateObject: every TrainJob's pods), mpi-operator its
          // launcher's training.kubeflow.org/job-name (defaultLabels, docs/operators.md 2.3);
          // trainctl's operator-free pods carry neither.
          .pod_list_terms = "!jobset.sigs.k8s.io/jobset-name,!training.kubeflow.org/job-name"};
}

}  // namespace trainctl::jobs
