// The in-cluster configuration of a pod's service account, as client-go's InClusterConfig
// builds it: KUBERNETES_SERVICE_HOST/PORT, token, ca.crt and namespace under the
// service-account directory.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "kube/config.h"

namespace trainctl::kube::detail {

using Getenv = std::function<std::optional<std::string>(const std::string&)>;

// Both variables are set and the token file exists.
bool in_cluster_possible(const LoadOptions& options, const Getenv& getenv);
// The server, CA, token and namespace (-n, else POD_NAMESPACE, else the namespace file,
// else "default"). Throws ConfigError when the token cannot be read.
RestConfig load_in_cluster(const LoadOptions& options, const Getenv& getenv);
std::string in_cluster_namespace(const LoadOptions& options, const Getenv& getenv);

}  // namespace trainctl::kube::detail
