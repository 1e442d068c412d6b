// What Kubeflow Trainer v2.3.0 makes of a TrainJob and its runtime (kubeflow/trainer tag
// v2.3.0): the runtime info (pkg/runtime/core/trainingruntime.go newRuntimeInfo: the runtime's
// JobSet template with the TrainJob's runtimePatches merged, one PodSet per replicated job,
// resourcesPerNode merged into the trainer container), the plugins that enforce the ML policy
// (pkg/runtime/framework/plugins/{torch,mpi,plainml,jax,xgboost,trainjobstatus}), the pod
// group policy ({volcano,coscheduling}) and the pod network (jobset IdentifyPodNetwork), and the
// objects the component builders build (jobset/jobset.go Build and builder.go, mpi.go Build,
// volcano.go Build, trainjobstatus.go Build). Pure functions of their inputs; the TrainJob
// controller (trainjob.h) applies what they return.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "kubesim/store.h"

namespace kubesim {

// A PodSet of the runtime info (pkg/runtime/runtime.go PodSet): what the plugins change before
// the JobSet is built. containers/init_containers are the pod template's, index for index
// (name, image, command, env, ports, volumeMounts).
struct TrainerPodSet {
  std::string name;
  std::optional<std::string> ancestor;
  int64_t count = 1;
  json containers = json::array();
  json init_containers = json::array();
  json volumes = json::array();
  json single_pod_requests = json::object();  // resource -> millis or units (PodRequests)
  std::vector<std::string> endpoints;          // <tj>-<rjob>-<replica>-<pod>.<subdomain>
};

// pkg/runtime/runtime.go Info.
struct TrainerInfo {
  json labels = json::object();       // the JobSet's metadata.labels
  json annotations = json::object();  // the JobSet's metadata.annotations
  json ml_policy;                     // the runtime's spec.mlPolicy (null when absent)
  json pod_group_policy;              // spec.podGroupPolicy (null when absent)
  json spec;                          // the JobSetSpec after runtimePatches and resourcesPerNode
  std::vector<TrainerPodSet> podsets;
  json pod_labels = json::object();       // Scheduler.PodLabels
  json pod_annotations = json::object();  // Scheduler.PodAnnotations

  TrainerPodSet* podset_by_ancestor(const std::string& ancestor);
  TrainerPodSet* podset_by_name(const std::string& name);
};

// The Trainer's own configuration that changes what it builds (pkg/apis/config/v1alpha1).
struct TrainerOptions {
  // Feature gate TrainJobStatus (Alpha, default off, pkg/features/features.go): the trainer
  // containers get the status server's URL, CA and token (trainjobstatus.go).
  bool trainjob_status = false;
  std::string operator_namespace = "kubeflow-system";
};

// A plugin error: the reconcile fails with this message (an event on the TrainJob).
struct TrainerError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// newRuntimeInfo only (what the validating webhook reads): no plugin has run.
TrainerInfo new_runtime_info(const json& trainjob, const json& runtime_spec);
// RuntimeInfo: newRuntimeInfo, then EnforceMLPolicy, EnforcePodGroupPolicy and
// IdentifyPodNetwork. Throws TrainerError.
TrainerInfo runtime_info(const json& trainjob, const json& runtime_spec, const TrainerOptions& options);

// jobset.go SyncParallelCount and Build: the JobSet (apiVersion, kind, metadata with labels,
// annotations and the controller ownerReference, spec) as the Trainer applies it, before the
// JobSet webhook's defaults.
json build_trainer_jobset(TrainerInfo& info, const json& trainjob);

// The other objects of the component builders, in the order kubesim applies them (a PodGroup
// before the JobSet, so that the gang exists before its pods): volcano's PodGroup, the status
// server's `<tj>-tls-config` ConfigMap, MPI's `<tj>-mpi-ssh-auth` Secret (created only when
// absent: the caller checks) and `<tj>-mpi-hostfile` ConfigMap. Throws TrainerError for the
// coscheduling PodGroup (scheduler-plugins' CRD is not served by kubesim).
// ssh_secret: whether to make the Secret (its key is generated; mpi.go makes it only when none
// exists).
std::vector<json> build_trainer_extras(const TrainerInfo& info, const json& trainjob, const TrainerOptions& options,
                                       bool ssh_secret = true);

// A field.Error's bad value as json.Marshal writes its Go struct (RuntimeRef, EnvVar,
// RuntimePatch, Container: their fields in declaration order), for the webhooks' messages.
std::string trainer_go_json(const json& value);

// The plugins' Validate (torch, mpi, xgboost, jobset, volcano) for the validating webhook:
// field errors as "path: Invalid value: ...: detail" lines, in plugin order. old: the TrainJob
// before an update (nullptr on create); jobset: the existing JobSet (nullptr when none);
// priority_class_exists: whether a PriorityClass of that name exists.
struct TrainerFieldError {
  std::string type;   // FieldValueInvalid, FieldValueForbidden
  std::string field;  // spec.trainer.env
  std::string body;   // "Invalid value: ...: detail" (field.Error ErrorBody)
};
std::vector<TrainerFieldError> validate_trainjob_plugins(
    const TrainerInfo& info, const json& trainjob, const json* old, const json* jobset,
    const std::function<bool(const std::string&)>& priority_class_exists);

}  // namespace kubesim
