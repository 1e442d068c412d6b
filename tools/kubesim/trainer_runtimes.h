// Kubeflow Trainer runtimes loaded at start (kubesim --runtimes DIR): every ClusterTrainingRuntime
// and TrainingRuntime document of DIR's *.yaml, *.yml and *.json files (several documents a file;
// documents of other kinds, such as a kustomization.yaml, are skipped), stored with their CRD's
// defaults (trainer_model.h runtime_with_defaults) as kube-apiserver would store them. A runtime
// of a name already loaded is replaced (a later --runtimes directory wins). A TrainingRuntime
// without a namespace goes to "default".
//
// Trainer v2.3.0's default runtimes (manifests/base/runtimes) are not part of this repository:
// the tests take them from ../shared/trainer-runtimes or the cache scripts/fetch-schemas.sh
// fills; tools/kubesim/seeds/runtimes holds kubesim's own minimal torch-distributed for the
// demo cluster of a fresh clone (docs/kubesim.md "Kubeflow Trainer v2 and JobSet").
#pragma once

#include <string>

#include "kubesim/store.h"

namespace kubesim {

// Returns how many runtimes were stored. Throws std::runtime_error when DIR is missing, a file
// does not parse, or Trainer's runtimes are not served (--operators without trainer).
size_t load_trainer_runtimes(Store& store, const std::string& dir);

}  // namespace kubesim
