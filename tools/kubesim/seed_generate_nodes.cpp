// Nodes and namespaces of a generated cluster (seed_generate_parts.h).
#include <cstdio>

#include "kubesim/seed_generate_parts.h"
#include "kubesim/seed_objects.h"
#include "kubesim/seed_real_size.h"

namespace kubesim {

std::string generated_time(std::time_t t) {
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string generated_ip(size_t i, int base) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "10.%d.%zu.%zu", base, (i / 250) % 256, i % 250 + 2);
  return buf;
}

GpuNodes generate_nodes(Store& store, const GenerateOptions& o, std::time_t now) {
  const ResourceType* nodes = store.find("", "v1", "nodes");
  GpuNodes gpu_nodes;
  const size_t masters = o.nodes >= 10 ? 3 : 0;
  const std::string since = generated_time(now - 90 * 86400);
  for (size_t i = 0; i < o.nodes; ++i) {
    const bool master = i < masters;
    const std::string ip = generated_ip(i, master ? 0 : 1 + static_cast<int>(i / 62500));
    json seed = {{"name", "cn-beijing." + ip}, {"ip", ip}, {"gpus", master ? 0 : o.gpus_per_node}, {"since", since}};
    if (master) {
      seed["roles"] = json::array({"master"});
      seed["taints"] = json::array({{{"key", "node-role.kubernetes.io/master"}, {"effect", "NoSchedule"}}});
      seed["cpu"] = "8";
      seed["memory"] = "32Gi";
    } else {
      seed["labels"] = {
          {"aliyun.accelerator/nvidia_name", i % 3 ? "Tesla-V100-SXM2-32GB" : "NVIDIA-A100-SXM4-80GB"},
          {"kubesim.trainctl.io/pool", "pool-" + std::to_string(i % 8)}};
      seed["cpu"] = "96";
      seed["memory"] = "768Gi";
      gpu_nodes.emplace_back("cn-beijing." + ip, ip);
    }
    json node = make_node(seed);
    if (o.real_objects) dress_node(node, since);
    if (nodes) store.create(*nodes, std::move(node));
  }
  return gpu_nodes;
}

std::vector<std::string> generate_namespaces(Store& store, const GenerateOptions& o) {
  const ResourceType* namespaces = store.find("", "v1", "namespaces");
  std::vector<std::string> names;
  for (size_t i = 0; i < o.namespaces; ++i) names.push_back("team-" + std::to_string(i));
  if (names.empty()) names.push_back("default");
  for (const auto& ns : names)
    if (namespaces && !store.get(*namespaces, "", ns)) store.create(*namespaces, make_namespace(ns));
  return names;
}

}  // namespace kubesim
