// The Kubernetes release kubesim pretends to be (--kubernetes-version): what /version
// answers and which labels the batch Job controller and kube-apiserver put on Job pods.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace kubesim {

struct KubeVersion {
  int major = 1;
  int minor = 31;
  int patch = 0;
  std::string git_version() const;  // "v1.31.0"
  // The /version document (version.Info) of that release.
  nlohmann::json info() const;
};

// "1.26", "v1.26" or "1.26.3"; throws std::invalid_argument with a one-line message for
// anything else or a release older than 1.21 (Indexed Jobs, which kubesim always has).
KubeVersion parse_kubernetes_version(const std::string& text);

}  // namespace kubesim
