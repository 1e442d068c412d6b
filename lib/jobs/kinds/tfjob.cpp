// TFJob (kubeflow.org/v1), made by the training-operator: its resource and labels, status,
// duration and requested GPUs.
//
// Pods (training-operator v1.9.0 pkg/apis/kubeflow.org/v1/common_types.go): job-name,
// operator-name=tfjob-controller, replica-type (the replica type in lower case: chief, master,
// ps, worker, evaluator) and replica-index, all under training.kubeflow.org/ from v1.4.0; v1.3.x
// sets group-name, job-name, replica-type and replica-index (legacy_pods.h).
//
// The chief is the operator's master role (pkg/controller.v1/tensorflow/tfjob_controller.go
// IsMasterRole): the Chief or Master replica when the spec has one (tensorflow/util.go
// ContainsChiefOrMasterSpec; the webhook allows at most one of the two,
// pkg/webhooks/tensorflow/tfjob_webhook.go), else worker index 0. Arena's isChiefPod
// (pkg/training/trainer_tensorflow.go) is the same rule on the same labels, save that it
// knows Chief only: for a Master job it takes worker 0. Here a chief or master pod wins over
// worker 0, so while a chief job's chief pod is not made yet worker 0 stands in for it.
//
// The conditions v1.9.0 writes (tfjob_controller.go UpdateJobStatus): Created on create;
// Running when the chief/master runs, or without one when a worker runs; Succeeded when the
// chief/master succeeded, or without one when worker 0 succeeded (all workers with
// SuccessPolicyAllWorkers); Restarting kept while a failed replica restarts; Failed when a
// replica failed for good; Succeeded and Failed also set completionTime. pkg/util/status.go:
// Restarting and Running replace each other; Succeeded and Failed set Running to False.
//
// Arena's status (trainer_tensorflow.go getStatus): the first of Succeeded, Failed, Running,
// Queuing whose condition is True, else PENDING; so a restarting job is PENDING.
//
// Duration (trainer_tensorflow.go Duration): 0 without status.startTime; completionTime -
// startTime when set; otherwise, unless FAILED, now - startTime; FAILED: the chief pod's
// latest condition transition - startTime (here else the Failed condition's transition, then
// now).
#include "jobs/json_util.h"
#include "jobs/kinds/kinds.h"
#include "jobs/kinds/shared_rules.h"
#include "jobs/status_rules.h"
#include "jobs/suspend.h"

namespace trainctl::jobs {

using nlohmann::json;

namespace {

std::chrono::seconds tfjob_duration(const StatusTimes& t, JobStatus status, TimePoint, const ChiefPod* chief,
                                    TimePoint now) {
  if (!t.start) return std::chrono::seconds(0);
  if (t.completion) return seconds_between(*t.start, *t.completion);
  if (status != JobStatus::Failed) return seconds_between(*t.start, now);
  auto end = chief ? chief->latest_transition : std::nullopt;
  if (!end) end = t.ended;
  return seconds_between(*t.start, end.value_or(now));
}

constexpr KindStatusRules kTFJobRules{kubeflow_conditions_status, kubeflow_times, nullptr, tfjob_duration,
                                      kubeflow_failure};

long long tfjob_spec_gpus(const json& spec) { return replica_map_gpus(at(spec, "tfReplicaSpecs")); }

}  // namespace

JobKind tfjob_kind() {
  return {.name = "tfjob",
          .title = "TFJob",
          .type = "tfjob",
          .trainer_name = "TFJOB",
          .created_by = "TFJob",
          .resource = {"kubeflow.org", "v1", "tfjobs", "TFJob"},
          .list_selector = "",
          .pod_job_label = "training.kubeflow.org/job-name",
          .pod_extra_selector = "training.kubeflow.org/operator-name=tfjob-controller",
          .chief_label = "training.kubeflow.org/replica-type",
          .chief_value = "chief",
          .chief_fallbacks = {"training.kubeflow.org/replica-type=master",
                              "training.kubeflow.org/replica-type=worker,"
                              "training.kubeflow.org/replica-index=0"},
          .pod_task_label = "",
          .pod_labels_from_annotations = {},
          // Arena's TrainingTypeMap (pkg/apis/types/training.go): name, alias, shorthand.
          .type_names = {"tfjob", "tensorflow", "tf"},
          .status_rules = &kTFJobRules,
          .spec_gpus = tfjob_spec_gpus,
          .chief_task = no_chief_task,
          .chief_value_from_pod = nullptr,
          .elastic_workers = nullptr,
          .framework_container = "tensorflow",
          // training-operator v1.3 (kubeflow/common v0.3.7 GenLabels and the TFJob controller's
          // replica-type, replica-index).
          .legacy_pod_selector = kKubeflowLegacyPods,
          .legacy_pod_labels = {{"training.kubeflow.org/replica-type", "replica-type"},
                                {"training.kubeflow.org/replica-index", "replica-index"},
                                {"training.kubeflow.org/job-role", "job-role"}},
          .replica = kubeflow_replica,
          .suspend = &kRunPolicySuspend};
}

}  // namespace trainctl::jobs
