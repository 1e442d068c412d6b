// TrainJob (trainer.kubeflow.org/v1alpha1), made by Kubeflow Trainer v2 through a JobSet of the
// same name: its resource and labels, status, duration, requested GPUs and training progress.
//
// Pods: the JobSet's, jobset.sigs.k8s.io/jobset-name=<TrainJob name> (kubernetes-sigs/jobset
// @v0.12.0 api/jobset/v1alpha2/jobset_types.go JobSetNameKey; the JobSet is named as the
// TrainJob, kubeflow/trainer@v2.3.0 pkg/runtime/framework/plugins/jobset/jobset.go Build).
// Trainer sets no trainer.kubeflow.org/ label on pods: its trainjob-ancestor-step label is on
// the runtimes' Job templates only (manifests/base/runtimes/*.yaml). A pod's replicated job is
// jobset.sigs.k8s.io/replicatedjob-name (node, launcher, dataset-initializer,
// model-initializer: pkg/constants/constants.go) and its rank the Job's completion index,
// batch.kubernetes.io/job-completion-index (a label from Kubernetes 1.28, an annotation
// before), which the torch plugin passes as PET_NODE_RANK (plugins/torch/torch.go). Trainer
// forces replicas to 1 on its replicated jobs, so each has one Job (job-index 0).
// Chief: the MPI launcher (DeepSpeed, MLX runtimes), else node rank 0, the torch rendezvous
// host <name>-node-0-0 (torch.go PET_MASTER_ADDR), else index 0 of any replicated job.
//
// Status (kubeflow/trainer@v2.3.0 pkg/controller/trainjob_controller.go; the conditions in
// pkg/apis/trainer/v1alpha1/trainjob_types.go): TrainJob has no Running condition. Complete
// (the JobSet's Completed, reason AllJobsCompleted) -> SUCCEEDED; Failed (the JobSet's Failed:
// FailedJobs, ReachedMaxRestarts, FailJobSetFailurePolicyAction; or DeadlineExceeded,
// TrainingRuntimeNotSupported) -> FAILED; Complete is read first as Arena reads Succeeded
// first. Suspended True (spec.suspend) -> SUSPENDED, but PENDING in a Kueue queue, which holds
// it suspended until admitted (shared_rules.h suspended_status), as for the other kinds. Otherwise status.jobsStatus (the JobSet's replicatedJobsStatus,
// jobset.go Status): a replicated job with active or ready Jobs -> RUNNING, which a Pending
// pod makes PENDING (status_rules.h status_with_pods); none yet -> PENDING.
//
// Duration: TrainJob has no startTime or completionTime. SUCCEEDED: the Complete condition's
// lastTransitionTime - creation; FAILED: the Failed condition's - creation; otherwise now -
// creation (MPIJob's rule, Arena's trainer_mpi.go Duration).
//
// Requested GPUs before pods exist: spec.trainer.resourcesPerNode (limits, else requests) times
// spec.trainer.numNodes (1 when unset: every shipped runtime's mlPolicy.numNodes). A job whose
// resourcesPerNode names no GPU has its runtime's (torchtune's node template): list and get
// read them from the runtime (trainjob_runtime_gpus.h). Once pods exist their GPUs count, as
// for every kind.
//
// Progress: status.trainerStatus (feature gate TrainJobStatus): progressPercentage,
// estimatedRemainingSeconds, metrics[] {name, value}, lastUpdatedTime (trainjob_types.go
// TrainerStatus).
#include "jobs/gpu.h"
#include "jobs/json_util.h"
#include "jobs/kinds/kinds.h"
#include "jobs/kinds/shared_rules.h"
#include "jobs/status_rules.h"
#include "jobs/suspend.h"

namespace trainctl::jobs {

using nlohmann::json;

namespace {

long long count_of(const json& v) { return v.is_number_integer() ? v.get<long long>() : 0; }

JobStatus trainjob_status(const json& job) {
  if (condition_true(job, "Complete")) return JobStatus::Succeeded;
  if (condition_true(job, "Failed")) return JobStatus::Failed;
  if (condition_true(job, "Suspended")) return suspended_status(job);
  for (const auto& s : at(at(job, "status"), "jobsStatus"))
    if (count_of(at(s, "active")) > 0 || count_of(at(s, "ready")) > 0) return JobStatus::Running;
  return JobStatus::Pending;
}

StatusTimes trainjob_times(const json& job) {
  return {std::nullopt, true_condition_since(job, "Complete"), true_condition_since(job, "Failed")};
}

std::chrono::seconds trainjob_duration(const StatusTimes& t, JobStatus status, TimePoint created,
                                       const ChiefPod*, TimePoint now) {
  if (status == JobStatus::Succeeded) return seconds_between(created, t.completion.value_or(now));
  if (status == JobStatus::Failed) return seconds_between(created, t.ended.value_or(now));
  return seconds_between(created, now);
}

std::optional<ObjectFailure> trainjob_failure(const json& job) {
  if (condition_true(job, "Complete")) return std::nullopt;
  return condition_failure(job, "Failed");
}

constexpr KindStatusRules kTrainJobRules{trainjob_status, trainjob_times, nullptr, trainjob_duration,
                                         trainjob_failure};

long long trainjob_spec_gpus(const json& spec) {
  const json& trainer = at(spec, "trainer");
  const json& resources = at(trainer, "resourcesPerNode");
  if (!resources.is_object()) return 0;
  // As one container of a pod spec, limits first (gpu.h); a GPU asked for by requests alone
  // counts the same (extended resources' requests equal their limits).
  long long per_node = spec_gpus({{"containers", json::array({{{"resources", resources}}})}});
  if (per_node == 0 && resources.contains("requests"))
    per_node =
        spec_gpus({{"containers", json::array({{{"resources", {{"limits", resources["requests"]}}}}})}});
  const json& nodes = at(trainer, "numNodes");
  return per_node * (nodes.is_number_integer() ? nodes.get<long long>() : 1);
}

std::optional<TrainingProgress> trainjob_progress(const json& job) {
  const json& ts = at(at(job, "status"), "trainerStatus");
  if (!ts.is_object()) return std::nullopt;
  TrainingProgress p;
  if (const json& v = at(ts, "progressPercentage"); v.is_number_integer()) p.percent = v.get<long long>();
  if (const json& v = at(ts, "estimatedRemainingSeconds"); v.is_number_integer())
    p.remaining = std::chrono::seconds(v.get<long long>());
  for (const auto& m : at(ts, "metrics")) p.metrics.emplace_back(str(m, "name"), str(m, "value"));
  p.updated = str(ts, "lastUpdatedTime");
  return p;
}

// The replicated job (node, launcher, dataset-initializer, model-initializer) and the Job's
// completion index, the node rank: node-0, node-1, launcher-0.
ReplicaPlace trainjob_replica(const json& pod, const std::string&) {
  return {replica_label(pod, "jobset.sigs.k8s.io/replicatedjob-name"),
          replica_number(replica_label(pod, "batch.kubernetes.io/job-completion-index"))};
}

}  // namespace

JobKind trainjob_kind() {
  return {.name = "trainjob",
          .title = "TrainJob",
          .type = "trainjob",
          .trainer_name = "TRAINJOB",
          .created_by = "TrainJob",
          .resource = {"trainer.kubeflow.org", "v1alpha1", "trainjobs", "TrainJob"},
          .list_selector = "",
          .pod_job_label = "jobset.sigs.k8s.io/jobset-name",
          .pod_extra_selector = "",
          .chief_label = "jobset.sigs.k8s.io/replicatedjob-name",
          .chief_value = "launcher",
          // node rank 0; else index 0 of whatever replicated job runs (a runtime whose trainer
          // job is not named node: the pods carry no ancestor-step label to tell it).
          .chief_fallbacks = {"jobset.sigs.k8s.io/replicatedjob-name=node,jobset.sigs.k8s.io/job-index=0,"
                              "batch.kubernetes.io/job-completion-index=0",
                              "jobset.sigs.k8s.io/job-index=0,batch.kubernetes.io/job-completion-index=0"},
          .pod_task_label = "",
          .pod_labels_from_annotations = {"batch.kubernetes.io/job-completion-index"},
          // "tj": two letters, as Arena's py, mj, vj; Trainer's CRD declares no shortNames.
          .type_names = {"trainjob", "tj"},
          .status_rules = &kTrainJobRules,
          .spec_gpus = trainjob_spec_gpus,
          .gpus_from_runtime = true,
          .chief_task = no_chief_task,
          .chief_value_from_pod = nullptr,
          .elastic_workers = nullptr,
          // Trainer's trainer container (constants.go Node); initializers have their own.
          .framework_container = "node",
          .replica = trainjob_replica,
          .progress = trainjob_progress,
          // spec.suspend (trainjob_types.go TrainJobSpec.Suspend; the controller's Stop).
          .suspend = &kSpecSuspend};
}

}  // namespace trainctl::jobs
