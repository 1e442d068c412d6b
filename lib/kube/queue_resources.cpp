#include "kube/queue_resources.h"

namespace trainctl::kube {

namespace {

Resource visibility(const std::string& version, bool local) {
  return local ? Resource{kKueueVisibilityGroup, version, "localqueues", "LocalQueue", true}
               : Resource{kKueueVisibilityGroup, version, "clusterqueues", "ClusterQueue", false};
}

bool reads_visibility(const std::string& version) { return version == "v1beta2" || version == "v1beta1"; }

}  // namespace

const Resource& volcano_queues() {
  static const Resource r{"scheduling.volcano.sh", "v1beta1", "queues", "Queue", false};
  return r;
}
const Resource& kueue_cluster_queues() {
  static const Resource r{kKueueGroup, "v1beta1", "clusterqueues", "ClusterQueue", false};
  return r;
}
const Resource& kueue_local_queues() {
  static const Resource r{kKueueGroup, "v1beta1", "localqueues", "LocalQueue", true};
  return r;
}
const Resource& kueue_workloads() {
  static const Resource r{kKueueGroup, "v1beta1", "workloads", "Workload", true};
  return r;
}

std::string kueue_visibility_version(const nlohmann::json& api_group) {
  if (!api_group.is_object()) return "";
  auto version_of = [](const nlohmann::json& v) {
    return v.is_object() && v.contains("version") && v["version"].is_string() ? v["version"].get<std::string>()
                                                                                : std::string();
  };
  if (api_group.contains("preferredVersion")) {
    const std::string preferred = version_of(api_group["preferredVersion"]);
    if (reads_visibility(preferred)) return preferred;
  }
  if (api_group.contains("versions") && api_group["versions"].is_array())
    for (const auto& v : api_group["versions"])
      if (reads_visibility(version_of(v))) return version_of(v);
  return "";
}

std::string cluster_queue_pending_path(const std::string& version, const std::string& cluster_queue) {
  return visibility(version, false).subresource_path("", cluster_queue, "pendingworkloads");
}

std::string local_queue_pending_path(const std::string& version, const std::string& ns,
                                     const std::string& local_queue) {
  return visibility(version, true).subresource_path(ns, local_queue, "pendingworkloads");
}

}  // namespace trainctl::kube
