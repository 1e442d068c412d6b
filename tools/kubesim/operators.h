// Which operators a simulated cluster has installed (kubesim --operators LIST): only the custom
// resources of the listed ones are served, as on a cluster where the others were never
// installed. The operators and their resources:
//   training-operator  kubeflow.org/v1 pytorchjobs, tfjobs (Kubeflow training-operator v1.9)
//   mpi-operator       kubeflow.org/v2beta1 mpijobs
//   volcano            batch.volcano.sh jobs, scheduling.volcano.sh podgroups and queues
//   trainer            trainer.kubeflow.org/v1alpha1 trainjobs, trainingruntimes,
//                      clustertrainingruntimes (Kubeflow Trainer v2; needs jobset)
//   jobset             jobset.x-k8s.io/v1alpha2 jobsets
//   kueue              kueue.x-k8s.io (its CRDs come from --schemas)
// A Trainer-only cluster, as Kubeflow Trainer v2's installation makes one:
//   kubesim --schemas DIR --operators trainer,jobset,kueue,volcano --runtimes RUNTIMES-DIR
// Custom resources of other groups (--crds) are kept.
#pragma once

#include <string>

#include "kubesim/store.h"

namespace kubesim {

// Stops serving the custom resources of the operators not in `list` (comma-separated names
// above, or "all"). Throws std::invalid_argument with one line saying what is wrong: an unknown
// name, trainer without jobset, kueue whose CRDs are not loaded.
void serve_only_operators(Store& store, const std::string& list);

}  // namespace kubesim
