#include "kubesim/seed_objects.h"

namespace kubesim {

using nlohmann::json;

json make_namespace(const std::string& name) {
  return {{"apiVersion", "v1"},
          {"kind", "Namespace"},
          {"metadata", {{"name", name}, {"labels", {{"kubernetes.io/metadata.name", name}}}}},
          {"spec", {{"finalizers", json::array({"kubernetes"})}}},
          {"status", {{"phase", "Active"}}}};
}

json make_node(const json& seed) {
  const std::string name = seed.value("name", "node");
  json labels = {{"beta.kubernetes.io/arch", "amd64"},
                 {"beta.kubernetes.io/os", "linux"},
                 {"kubernetes.io/arch", "amd64"},
                 {"kubernetes.io/hostname", name},
                 {"kubernetes.io/os", "linux"}};
  for (const auto& r : seed.value("roles", json::array()))
    if (r.is_string()) labels["node-role.kubernetes.io/" + r.get<std::string>()] = "";
  const json extra = seed.value("labels", json::object());
  for (auto it = extra.begin(); it != extra.end(); ++it)
    labels[it.key()] = it->is_string() ? it->get<std::string>() : it->dump();
  json capacity = {{"cpu", seed.value("cpu", "32")},
                   {"memory", seed.value("memory", "128Gi")},
                   {"pods", "110"},
                   {"ephemeral-storage", "500Gi"}};
  const int64_t gpus = seed.value("gpus", 0);
  if (gpus > 0) {
    capacity[seed.value("gpuResource", "nvidia.com/gpu")] = std::to_string(gpus);
    if (!labels.contains("nvidia.com/gpu.count") &&
        seed.value("gpuResource", "nvidia.com/gpu") == "nvidia.com/gpu")
      labels["nvidia.com/gpu.present"] = "true";
  }
  const bool ready = seed.value("ready", true);
  const std::string since = seed.value("since", "2026-01-01T00:00:00Z");
  json conditions = json::array();
  for (const char* t : {"MemoryPressure", "DiskPressure", "PIDPressure"})
    conditions.push_back({{"type", t},
                          {"status", "False"},
                          {"reason", std::string("KubeletHasNo") +
                                         (t[0] == 'M'   ? "Memory"
                                          : t[0] == 'D' ? "Disk"
                                                        : "PID") +
                                         "Pressure"},
                          {"message", "kubelet has sufficient resources"},
                          {"lastHeartbeatTime", since},
                          {"lastTransitionTime", since}});
  conditions.push_back({{"type", "Ready"},
                        {"status", ready ? "True" : "False"},
                        {"reason", ready ? "KubeletReady" : "KubeletNotReady"},
                        {"message", ready ? "kubelet is posting ready status" : "container runtime is down"},
                        {"lastHeartbeatTime", since},
                        {"lastTransitionTime", since}});
  json spec = json::object();
  if (seed.contains("taints")) spec["taints"] = seed["taints"];
  if (!ready) {
    if (!spec.contains("taints")) spec["taints"] = json::array();
    spec["taints"].push_back({{"key", "node.kubernetes.io/not-ready"}, {"effect", "NoSchedule"}});
  }
  if (seed.value("unschedulable", false)) spec["unschedulable"] = true;
  const std::string ip = seed.value("ip", "");
  json addresses = json::array();
  if (!ip.empty()) addresses.push_back({{"type", "InternalIP"}, {"address", ip}});
  addresses.push_back({{"type", "Hostname"}, {"address", name}});
  return {{"apiVersion", "v1"},
          {"kind", "Node"},
          {"metadata", {{"name", name}, {"labels", labels}}},
          {"spec", spec},
          {"status",
           {{"capacity", capacity},
            {"allocatable", capacity},
            {"addresses", addresses},
            {"conditions", conditions},
            {"nodeInfo",
             {{"architecture", "amd64"},
              {"operatingSystem", "linux"},
              {"kubeletVersion", seed.value("kubeletVersion", "v1.28.3")},
              {"kubeProxyVersion", seed.value("kubeletVersion", "v1.28.3")},
              {"containerRuntimeVersion", "containerd://1.6.20"},
              {"osImage", "Alibaba Cloud Linux 3"},
              {"kernelVersion", "5.10.134-16.al8.x86_64"}}}}}};
}

json make_pvc(const json& seed) {
  const std::string name = seed.value("name", "data");
  json modes = seed.value("accessModes", json::array({"ReadWriteMany"}));
  const std::string storage = seed.value("storage", "100Gi");
  json annotations = {{"pv.kubernetes.io/bind-completed", "yes"},
                      {"pv.kubernetes.io/bound-by-controller", "yes"}};
  if (seed.contains("description")) annotations["description"] = seed["description"];
  if (seed.contains("owner")) annotations["owner"] = seed["owner"];
  const json extra = seed.value("annotations", json::object());
  for (auto it = extra.begin(); it != extra.end(); ++it) annotations[it.key()] = *it;
  return {{"apiVersion", "v1"},
          {"kind", "PersistentVolumeClaim"},
          {"metadata",
           {{"name", name},
            {"namespace", seed.value("namespace", "default")},
            {"annotations", annotations},
            {"finalizers", json::array({"kubernetes.io/pvc-protection"})}}},
          {"spec",
           {{"accessModes", modes},
            {"resources", {{"requests", {{"storage", storage}}}}},
            {"storageClassName", seed.value("storageClass", "alibabacloud-cnfs-nas")},
            {"volumeMode", "Filesystem"},
            {"volumeName", seed.value("volumeName", name + "-pv")}}},
          {"status", {{"phase", "Bound"}, {"accessModes", modes}, {"capacity", {{"storage", storage}}}}}};
}

}  // namespace kubesim
