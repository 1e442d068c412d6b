// Where tests find things outside the repository.
#pragma once

#include <optional>
#include <string>

namespace trainctl::testing {

// The directory of real Kubernetes schemas (crds/, openapi/): $TRAINCTL_SCHEMAS, else
// ../shared/k8s-schemas beside the source tree, else the cache filled by
// scripts/fetch-schemas.sh (~/.cache/trainctl/k8s-schemas). nullopt when none exists.
std::optional<std::string> find_schema_dir();

// Like find_schema_dir(), but when there is none prints how to get the schemas and ends
// the test binary with exit code 77, which CTest reports as skipped (not passed).
std::string require_schema_dir();

// Kubeflow Trainer v2.3.0's default ClusterTrainingRuntimes (manifests/base/runtimes, not in
// this repository): $TRAINCTL_TRAINER_RUNTIMES, else ../shared/trainer-runtimes beside the source
// tree, else ~/.cache/trainctl/trainer-runtimes (scripts/fetch-schemas.sh). nullopt when none.
std::optional<std::string> find_trainer_runtimes_dir();

// A fresh empty directory under the build tree, removed by nobody (inspect after failures).
std::string make_temp_dir(const std::string& prefix);

}  // namespace trainctl::testing
