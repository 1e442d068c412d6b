// What kubesim's Kubeflow Trainer v2.3.0 and JobSet v0.12.0 share: their resources, the names
// and labels both sides of the API use, the defaults their CRDs and webhooks apply, and
// apimachinery's condition helper. Sources (tags kubeflow/trainer v2.3.0,
// kubernetes-sigs/jobset v0.12.0):
//   pkg/constants/constants.go, pkg/apis/trainer/v1alpha1/*_types.go (Trainer);
//   api/jobset/v1alpha2/jobset_types.go, pkg/webhooks/jobset_webhook.go Default (JobSet);
//   the CRDs' `default:` values (manifests/base/crds, config/components/crd/bases).
#pragma once

#include <string>

#include "kubesim/store.h"

namespace kubesim {

// ---- Trainer (pkg/constants/constants.go) ----
inline constexpr const char* kTrainerGroup = "trainer.kubeflow.org";
inline constexpr const char* kTrainerApiVersion = "trainer.kubeflow.org/v1alpha1";
inline constexpr const char* kTrainJobController = "trainer.kubeflow.org/trainjob-controller";
inline constexpr const char* kAncestorLabel = "trainer.kubeflow.org/trainjob-ancestor-step";
inline constexpr const char* kFrameworkLabel = "trainer.kubeflow.org/framework";
inline constexpr const char* kSupportLabel = "trainer.kubeflow.org/support";
inline constexpr const char* kAncestorTrainer = "trainer";
inline constexpr const char* kDatasetInitializer = "dataset-initializer";
inline constexpr const char* kModelInitializer = "model-initializer";
inline constexpr const char* kNodeName = "node";          // the trainer container and rJob
inline constexpr const char* kLauncherName = "launcher";  // the MPI launcher rJob
inline constexpr int kTrainerPort = 29500;                 // ContainerTrainerPort
inline constexpr const char* kCompletionIndexFieldPath =
    "metadata.annotations['batch.kubernetes.io/job-completion-index']";

// ---- JobSet (api/jobset/v1alpha2/jobset_types.go, pkg/constants/constants.go) ----
inline constexpr const char* kJobSetApiVersion = "jobset.x-k8s.io/v1alpha2";
inline constexpr const char* kJobSetNameKey = "jobset.sigs.k8s.io/jobset-name";
inline constexpr const char* kJobSetUidKey = "jobset.sigs.k8s.io/jobset-uid";
inline constexpr const char* kReplicatedJobNameKey = "jobset.sigs.k8s.io/replicatedjob-name";
inline constexpr const char* kReplicatedJobReplicasKey = "jobset.sigs.k8s.io/replicatedjob-replicas";
inline constexpr const char* kGlobalReplicasKey = "jobset.sigs.k8s.io/global-replicas";
inline constexpr const char* kJobIndexKey = "jobset.sigs.k8s.io/job-index";
inline constexpr const char* kJobGlobalIndexKey = "jobset.sigs.k8s.io/job-global-index";
inline constexpr const char* kJobKey = "jobset.sigs.k8s.io/job-key";
inline constexpr const char* kRestartsKey = "jobset.sigs.k8s.io/restart-attempt";
inline constexpr const char* kGroupNameKey = "jobset.sigs.k8s.io/group-name";
inline constexpr const char* kGroupReplicasKey = "jobset.sigs.k8s.io/group-replicas";
inline constexpr const char* kJobGroupIndexKey = "jobset.sigs.k8s.io/job-group-index";
inline constexpr const char* kJobSetController = "jobset.sigs.k8s.io/jobset-controller";

// The resources Trainer and JobSet work with (nullptr when not served).
struct TrainerTypes {
  const ResourceType* trainjobs = nullptr;
  const ResourceType* trainingruntimes = nullptr;
  const ResourceType* clustertrainingruntimes = nullptr;
  const ResourceType* jobsets = nullptr;
  const ResourceType* jobs = nullptr;  // batch/v1
  const ResourceType* pods = nullptr;
  const ResourceType* services = nullptr;
  const ResourceType* configmaps = nullptr;
  const ResourceType* secrets = nullptr;
  const ResourceType* events = nullptr;
  const ResourceType* vc_podgroups = nullptr;  // scheduling.volcano.sh/v1beta1
  const ResourceType* priorityclasses = nullptr;
  static TrainerTypes find(const Store& store);
};

// The TrainJob as kube-apiserver stores it: the CRD's defaults (spec.runtimeRef.apiGroup and
// kind, spec.suspend, spec.managedBy) where absent.
json trainjob_with_defaults(json trainjob);
// A (Cluster)TrainingRuntime with its CRD's defaults (mlPolicy.mpi, podGroupPolicy, and the
// JobSet template's).
json runtime_with_defaults(json runtime);
// The JobSet CRD's structural defaults (jobset.x-k8s.io_jobsets.yaml): replicas 1, groupName
// "default", failurePolicy.restartStrategy Recreate, volumeClaimPolicies retention Delete,
// container ports' protocol TCP.
void default_jobset_crd(json& spec);
// A JobSet spec with the JobSet CRD's defaults and what the mutating webhook mjobset.kb.io
// sets on create (successPolicy All, startupPolicy AnyOrder, completionMode Indexed, pod
// restartPolicy OnFailure, network.enableDNSHostnames and publishNotReadyAddresses true,
// failure policy rule names).
void default_jobset_spec(json& spec);

// The Trainer's defaulting webhook (pkg/webhooks/trainjob_webhook.go Default): a runtime patch
// gets `time` (now) when it first appears, and a new one whenever it changes; old is the
// TrainJob before an update (nullptr on create).
void default_runtime_patch_times(json& trainjob, const json* old, const std::string& now);

// The Trainer's registry key of a runtimeRef: GroupKind{apiGroup, kind}.String()
// (pkg/runtime/runtime.go RuntimeRefToRuntimeRegistryKey): "Kind.group", or "Kind".
std::string runtime_registry_key(const json& runtime_ref);
bool is_supported_runtime_key(const std::string& key);

// apimachinery meta.SetStatusCondition: a new type is appended (lastTransitionTime `now` unless
// given); an existing one changes in place, its time only with its status. True when changed.
bool set_meta_condition(json& conditions, json condition, const std::string& now);
void remove_meta_condition(json& conditions, const std::string& type);

// A JSON array of env vars/ports/volumes/mounts: replace the element whose key matches, else
// append (kubeflow/trainer pkg/apply UpsertEnvVars, UpsertVolumes, UpsertVolumeMounts (by
// mountPath), UpsertPort (by containerPort or name)).
void upsert_by(json& list, const json& item, const char* key, const char* alt_key = nullptr);

// The canonical string of a resource.Quantity given as a JSON number or string ("2", "500m",
// "16Gi" unchanged), as a typed Go object serialises it.
json canonical_quantity(const json& q);

}  // namespace kubesim
