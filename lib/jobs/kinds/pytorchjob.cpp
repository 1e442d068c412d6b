// PyTorchJob (kubeflow.org/v1), made by the training-operator: its resource and labels, status,
// duration and requested GPUs.
//
// Pods: training.kubeflow.org/job-name and operator-name=pytorchjob-controller (v1.4.0 on); the
// older releases' pods (training-operator v1.3.x, kubeflow/common v0.3.7 GenLabels: group-name,
// job-name, replica-type, replica-index; kubeflow/pytorch-operator v0.6.0-v0.7.0 and Arena's
// build of it, controller.go: group-name, pytorch-job-name, pytorch-replica-type,
// pytorch-replica-index) are found by group-name and their ownerReference (legacy_pods.h). The chief is
// the operator's master role (pytorchjob_controller.go IsMasterRole): the Master replica's pod
// when the spec has a Master, else worker 0 (an elastic job has Workers only). Requested GPUs:
// spec.pytorchReplicaSpecs, each role's replicas times its pod template's GPUs.
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
// the first of Succeeded, Failed, Running, Queuing whose condition is True, else PENDING, so a
// restarting job is PENDING until the master runs again. trainctl adds SUSPENDED, for a True
// Suspended condition (after Succeeded and Failed: a finished job is not suspended, job.go
// ReconcileJobs), which Arena shows as PENDING; a job Kueue holds in its queue stays PENDING
// (suspended_status). No upstream operator
// sets Queuing (docs/operators.md §1.6); Arena's vendored operator fork does.
//
// Duration (trainer_pytorch.go Duration): 0 without status.startTime; completionTime -
// startTime when set; FAILED: the chief pod's latest condition transition - creation (else
// the Failed condition's transition); otherwise now - startTime.
#include "core/text.h"
#include "jobs/json_util.h"
#include "jobs/kinds/kinds.h"
#include "jobs/kinds/shared_rules.h"
#include "jobs/status_rules.h"
#include "jobs/suspend.h"

namespace trainctl::jobs {

using nlohmann::json;

namespace {

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

constexpr KindStatusRules kPyTorchJobRules{kubeflow_conditions_status, kubeflow_times, nullptr,
                                           pytorchjob_duration, kubeflow_failure};

long long pytorchjob_spec_gpus(const json& spec) { return replica_map_gpus(at(spec, "pytorchReplicaSpecs")); }

// The replica type whose pods may be the chief (IsMasterRole): master when the spec has a
// Master (the operator camel-cases the keys, pytorch_defaults.go), else worker.
std::string pytorchjob_chief_task(const json& spec) {
  const json& specs = at(spec, "pytorchReplicaSpecs");
  if (specs.is_object())
    for (const auto& [type, replica] : specs.items())
      if (ascii_lower(type) == "master") return "master";
  return "worker";
}

// spec.elasticPolicy's minReplicas and maxReplicas, defaulted as training-operator v1.9.0's
// setElasticPolicy does (pkg/apis/kubeflow.org/v1/pytorch_defaults.go): a missing bound is the
// other one, both missing are the Worker replicas (1 when unset, setDefaultReplicas).
std::optional<WorkerRange> pytorchjob_elastic_workers(const json& spec) {
  const json& policy = at(spec, "elasticPolicy");
  if (!policy.is_object()) return std::nullopt;
  const json& min = at(policy, "minReplicas");
  const json& max = at(policy, "maxReplicas");
  if (min.is_number_integer() && max.is_number_integer())
    return WorkerRange{min.get<long long>(), max.get<long long>()};
  if (max.is_number_integer()) return WorkerRange{max.get<long long>(), max.get<long long>()};
  if (min.is_number_integer()) return WorkerRange{min.get<long long>(), min.get<long long>()};
  const json& replicas = at(at_path(spec, {"pytorchReplicaSpecs", "Worker"}), "replicas");
  const long long workers = replicas.is_number_integer() ? replicas.get<long long>() : 1;
  return WorkerRange{workers, workers};
}

}  // namespace

JobKind pytorchjob_kind() {
  return {.name = "pytorchjob",
          .title = "PyTorchJob",
          .type = "pytorchjob",
          .trainer_name = "PYTORCHJOB",
          .created_by = "PyTorchJob",
          .resource = {"kubeflow.org", "v1", "pytorchjobs", "PyTorchJob"},
          .list_selector = "",
          .pod_job_label = "training.kubeflow.org/job-name",
          .pod_extra_selector = "training.kubeflow.org/operator-name=pytorchjob-controller",
          .chief_label = "training.kubeflow.org/replica-type",
          .chief_value = "master",
          .chief_fallbacks = {"training.kubeflow.org/replica-type=worker,training.kubeflow.org/replica-index=0"},
          .pod_task_label = "training.kubeflow.org/replica-type",
          .pod_labels_from_annotations = {},
          .type_names = {"pytorchjob", "pytorch", "py"},
          .status_rules = &kPyTorchJobRules,
          .spec_gpus = pytorchjob_spec_gpus,
          .chief_task = pytorchjob_chief_task,
          .chief_value_from_pod = nullptr,
          .elastic_workers = pytorchjob_elastic_workers,
          .framework_container = "pytorch",
          // training-operator v1.3 (kubeflow/common v0.3.7: replica-type, replica-index, job-role)
          // and pytorch-operator v0.6-v0.7 (pytorch-replica-type, pytorch-replica-index).
          .legacy_pod_selector = kKubeflowLegacyPods,
          .legacy_pod_labels = {{"training.kubeflow.org/replica-type", "replica-type"},
                                {"training.kubeflow.org/replica-type", "pytorch-replica-type"},
                                {"training.kubeflow.org/replica-index", "replica-index"},
                                {"training.kubeflow.org/replica-index", "pytorch-replica-index"},
                                {"training.kubeflow.org/job-role", "job-role"}},
          .replica = kubeflow_replica,
          .suspend = &kRunPolicySuspend};
}

}  // namespace trainctl::jobs
