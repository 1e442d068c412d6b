// The strategic merge patches Kubeflow Trainer v2.3.0 makes of a runtime's JobSet template:
// a TrainJob's spec.runtimePatches applied in order (pkg/runtime/core/trainingruntime.go
// mergeRuntimePatches: strategicpatch.StrategicMergePatch against jobsetv1alpha2.JobSetSpec,
// then the runtime's replicatedJobs order restored) and spec.trainer.resourcesPerNode merged
// into the trainer container (pkg/util/trainingruntime MergeResourceRequirements).
//
// Which lists merge by which key is what the Go types' patchStrategy/patchMergeKey tags say
// (k8s.io/apimachinery pkg/util/strategicpatch with a struct's LookupPatchMeta): JobSetSpec
// replicatedJobs and ReplicatedJob dependsOn by name (jobset api/jobset/v1alpha2
// jobset_types.go); PodSpec volumes, containers, initContainers, ephemeralContainers,
// imagePullSecrets, schedulingGates, resourceClaims by name, hostAliases by ip,
// topologySpreadConstraints by topologyKey; Container env by name, ports by containerPort,
// volumeMounts by mountPath, volumeDevices by devicePath (k8s.io/api core/v1 types.go).
// Every other list (tolerations, command, args, envFrom, ...) is replaced; maps merge; a null
// deletes; the directives $patch: replace|delete are honoured.
#pragma once

#include "kubesim/store.h"

namespace kubesim {

// spec: a JobSetSpec; patch: a JobSetSpecPatch (runtimePatches[].trainingRuntimeSpec.template.spec).
void strategic_merge_jobset_spec(json& spec, const json& patch);

// Applies every runtimePatch's trainingRuntimeSpec.template.spec to spec in list order and
// restores the replicatedJobs order spec had (a name it did not have sorts first, as Go's
// map lookup of a missing name gives 0).
void merge_runtime_patches(json& spec, const json& runtime_patches);

// base overlaid with override: limits and requests merged per resource name, claims by name.
json merge_resource_requirements(const json& base, const json& override);

}  // namespace kubesim
