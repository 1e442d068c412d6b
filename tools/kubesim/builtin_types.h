// The resources kubesim serves without any CRD directory: the core/apps/batch/scheduling
// types of a real cluster, and the CRDs of the training operators and Volcano.
#pragma once

#include "kubesim/store.h"

#include <string>
#include <vector>

namespace kubesim {

// core/v1 pods, services, configmaps, secrets, persistentvolumeclaims, namespaces, nodes,
// events; apps/v1 deployments, replicasets; batch/v1 jobs; scheduling.k8s.io/v1
// priorityclasses; RBAC and SelfSubjectAccessReviews (rbac.h). Registered by Store's constructor.
std::vector<ResourceType> builtin_core_types();

// kubeflow.org/v1 pytorchjobs, kubeflow.org/v2beta1 mpijobs, batch.volcano.sh/v1alpha1 jobs,
// scheduling.volcano.sh/v1beta1 podgroups and queues, trainer.kubeflow.org/v1alpha1 trainjobs,
// trainingruntimes and clustertrainingruntimes, jobset.x-k8s.io/v1alpha2 jobsets, as their CRDs
// declare them.
std::vector<ResourceType> builtin_crd_types();

// Registers builtin_crd_types() that are not yet registered (as custom resources).
void register_builtin_crds(Store& store);

// Reads every CustomResourceDefinition (YAML or JSON, several documents per file) in dir
// and registers one ResourceType per served version. Returns how many were registered.
size_t register_crds_from_dir(Store& store, const std::string& dir);

// The ResourceType of one CRD version (throws std::runtime_error when malformed).
std::vector<ResourceType> types_from_crd(const json& crd);

}  // namespace kubesim
