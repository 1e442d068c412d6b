#include "kubesim/seed_objects.h"

#include <cstdint>
#include <cstdio>

#include "kubesim/controllers/context.h"

namespace kubesim {

using nlohmann::json;

json make_namespace(const std::string& name) {
  return {{"apiVersion", "v1"},
          {"kind", "Namespace"},
          {"metadata", {{"name", name}, {"labels", {{"kubernetes.io/metadata.name", name}}}}},
          {"spec", {{"finalizers", json::array({"kubernetes"})}}},
          {"status", {{"phase", "Active"}}}};
}

// 32 hex digits derived from the node's name, so a seeded cluster is the same every run.
std::string hex_id(const std::string& name, const char* salt) {
  uint64_t h[2] = {1469598103934665603ULL, 1099511628211ULL};
  for (int k = 0; k < 2; ++k) {
    for (char c : name + salt + std::to_string(k)) {
      h[k] ^= static_cast<unsigned char>(c);
      h[k] *= 1099511628211ULL;
    }
  }
  char out[33];
  std::snprintf(out, sizeof out, "%016llx%016llx", static_cast<unsigned long long>(h[0]),
                static_cast<unsigned long long>(h[1]));
  return out;
}

namespace {

std::string uuid_form(const std::string& hex) {
  return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" + hex.substr(16, 4) + "-" +
         hex.substr(20, 12);
}

}  // namespace

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
    if (seed.contains("gpuMemory") && !labels.contains("nvidia.com/gpu.memory"))
      labels["nvidia.com/gpu.memory"] = std::to_string(parse_quantity(seed["gpuMemory"]) / (1024 * 1024));
    if (!labels.contains("nvidia.com/gpu.count") &&
        seed.value("gpuResource", "nvidia.com/gpu") == "nvidia.com/gpu")
      labels["nvidia.com/gpu.present"] = "true";
  }
  // Other extended resources, as a device plugin advertises them (nvidia.com/mig-1g.10gb,
  // aliyun.com/gpu-mem): name -> count.
  const json extra_resources = seed.value("resources", json::object());
  for (auto it = extra_resources.begin(); it != extra_resources.end(); ++it)
    capacity[it.key()] = it->is_string() ? it->get<std::string>() : it->dump();
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
  // status as the kubelet writes it (k8s.io/api core/v1 NodeStatus, NodeSystemInfo: every
  // field of nodeInfo is required; daemonEndpoints.kubeletEndpoint is the kubelet's port).
  return {{"apiVersion", "v1"},
          {"kind", "Node"},
          {"metadata", {{"name", name}, {"labels", labels}}},
          {"spec", spec},
          {"status",
           {{"capacity", capacity},
            {"allocatable", capacity},
            {"addresses", addresses},
            {"conditions", conditions},
            {"daemonEndpoints", {{"kubeletEndpoint", {{"Port", 10250}}}}},
            {"nodeInfo",
             {{"machineID", hex_id(name, "machine")},
              {"systemUUID", uuid_form(hex_id(name, "system"))},
              {"bootID", uuid_form(hex_id(name, "boot"))},
              {"architecture", "amd64"},
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
