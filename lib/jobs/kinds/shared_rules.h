// Rules several kinds share: the kubeflow.org conditions (PyTorchJob, MPIJob), condition
// times, and GPUs of replica specs (the kubeflow.org replica maps, Volcano's tasks).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "jobs/job_status.h"
#include "jobs/replica.h"
#include "jobs/status_rules.h"
#include "jobs/time.h"

namespace trainctl::jobs {

// Arena's getStatus on kubeflow.org JobConditions (pkg/training/trainer_tensorflow.go): the
// first of Succeeded, Failed, Running, Queuing whose condition is True, else PENDING
// (kinds/pytorchjob.cpp says what the operator writes).
JobStatus kubeflow_conditions_status(const nlohmann::json& job);

// The status of a job whose Suspended condition is True: SUSPENDED; but PENDING for a job in a
// Kueue queue (label kueue.x-k8s.io/queue-name), which Kueue holds suspended until its Workload
// is admitted (kueue v0.19.2 pkg/controller/jobframework/defaults.go ApplyDefaultForSuspend,
// reconciler.go ReconcileGenericJob): it waits in its queue, and get shows its position.
JobStatus suspended_status(const nlohmann::json& job);

// The lastTransitionTime of obj's status.conditions entry of that type when its status is
// "True".
std::optional<TimePoint> true_condition_since(const nlohmann::json& obj, const char* type);

// The times of a kubeflow.org job (PyTorchJob, TFJob, MPIJob): status.startTime,
// status.completionTime and the Failed condition's transition (true_condition_since).
StatusTimes kubeflow_times(const nlohmann::json& job);

// The failure a true condition of that type states (reason, message, lastTransitionTime);
// nullopt when it is absent or not True. Its reason is the condition's type when it has none.
std::optional<ObjectFailure> condition_failure(const nlohmann::json& job, const char* type);

// The failure rule of the kubeflow.org jobs: the Failed condition (training-operator v1.9.0
// pkg/controller.v1/common/job.go, mpi-operator v0.8.0 updateMPIJobFailedStatus), unless
// Succeeded is True too, which Arena's getStatus reads first.
std::optional<ObjectFailure> kubeflow_failure(const nlohmann::json& job);

// GPUs of one replica spec: its replicas (1 when unset) times the GPUs of template.spec.
long long replica_gpus(const nlohmann::json& replica);

// GPUs of a kubeflow.org replica map (pytorchReplicaSpecs, mpiReplicaSpecs): each role's
// replica_gpus. 0 when `specs` is not an object.
long long replica_map_gpus(const nlohmann::json& specs);

// The pods of training-operator v1.3 and pytorch-operator (kind.h legacy_pod_selector): every
// kubeflow.org operator before kubeflow/common v0.4 labels group-name=kubeflow.org; v1.4.0 and
// v1.5.x keep that label beside the training.kubeflow.org/ ones, whose pods the current list
// finds.
inline constexpr const char* kKubeflowLegacyPods = "group-name=kubeflow.org,!training.kubeflow.org/job-name";

// The replica rule of the training-operator's kinds (PyTorchJob, TFJob): the pod's
// training.kubeflow.org/replica-type and replica-index (training-operator v1.9.0
// pkg/controller.v1/common/pod.go, kubeflow.org/v1 common_types.go ReplicaTypeLabel,
// ReplicaIndexLabel).
ReplicaPlace kubeflow_replica(const nlohmann::json& pod, const std::string& job);

// chief_task of the kinds whose chief label alone marks the chief: "".
std::string no_chief_task(const nlohmann::json& spec);

}  // namespace trainctl::jobs
