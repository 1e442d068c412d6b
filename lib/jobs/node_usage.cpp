#include "jobs/node_usage.h"

#include <algorithm>
#include <map>

#include "jobs/gpu.h"
#include "jobs/json_util.h"
#include "jobs/pod_status.h"

namespace trainctl::jobs {

std::string mode_name(NodeMode m) {
  switch (m) {
    case NodeMode::None:
      return "none";
    case NodeMode::Exclusive:
      return "exclusive";
    case NodeMode::Topology:
      return "topology";
    case NodeMode::Share:
      return "share";
  }
  return "none";
}

namespace {

using nlohmann::json;

std::string node_role(const json& node) {
  std::string roles;
  const auto& labels = at_path(node, {"metadata", "labels"});
  if (labels.is_object()) {
    const std::string prefix = "node-role.kubernetes.io/";
    for (const auto& [k, v] : labels.items())
      if (k.rfind(prefix, 0) == 0 && k.size() > prefix.size())
        roles += (roles.empty() ? "" : ",") + k.substr(prefix.size());
  }
  if (roles.empty()) roles = label(node, "kubernetes.io/role");
  return roles.empty() ? "<none>" : roles;
}

std::string node_ip(const json& node) {
  const auto& addrs = at_path(node, {"status", "addresses"});
  for (const auto& a : addrs)
    if (str(a, "type") == "InternalIP") return str(a, "address");
  return addrs.is_array() && !addrs.empty() ? str(addrs[0], "address") : "";
}

bool node_ready(const json& node) {
  for (const auto& c : at_path(node, {"status", "conditions"}))
    if (str(c, "type") == "Ready") return str(c, "status") == "True";
  return false;
}

long long pod_resource(const json& pod, const std::string& resource) {
  long long n = 0;
  for (const auto& c : at_path(pod, {"spec", "containers"}))
    n += parse_count(at(at_path(c, {"resources", "limits"}), resource));
  return n;
}

}  // namespace

nlohmann::ordered_json NodeUsage::to_json() const {
  nlohmann::ordered_json j;
  j["name"] = name;
  j["ip"] = ip;
  j["role"] = role;
  j["status"] = status;
  j["gpuMode"] = mode_name(mode);
  j["gpuResource"] = resource;
  j["totalGPUs"] = total;
  j["allocatedGPUs"] = allocated;
  j["unhealthyGPUs"] = unhealthy;
  j["instances"] = nlohmann::ordered_json::array();
  for (const auto& p : pods)
    j["instances"].push_back(
        {{"namespace", p.namespace_}, {"name", p.name}, {"status", p.status}, {"requestGPUs", p.gpus}});
  return j;
}

std::vector<NodeUsage> node_usage(const std::vector<json>& nodes, const std::vector<json>& pods) {
  std::map<std::string, std::vector<const json*>> by_node;
  for (const auto& p : pods) {
    const std::string n = str(at(p, "spec"), "nodeName");
    if (!n.empty() && !pod_completed(p)) by_node[n].push_back(&p);
  }
  std::vector<NodeUsage> out;
  for (const auto& node : nodes) {
    NodeUsage u;
    u.name = name_of(node);
    u.ip = node_ip(node);
    u.role = node_role(node);
    u.status = node_ready(node) ? "ready" : "notready";
    const auto& capacity = at_path(node, {"status", "capacity"});
    const auto& allocatable = at_path(node, {"status", "allocatable"});
    const long long nvidia = parse_count(at(allocatable, "nvidia.com/gpu"));
    if (parse_count(at(allocatable, "aliyun.com/gpu-mem")) > 0) {
      u.mode = NodeMode::Share;
      u.resource = "aliyun.com/gpu-count";
    } else if (label(node, "ack.node.gpu.schedule") == "topology") {
      u.mode = NodeMode::Topology;
      u.resource = "aliyun.com/gpu";
    } else if (nvidia >= 1 && nvidia <= 100) {
      u.mode = NodeMode::Exclusive;
      u.resource = "nvidia.com/gpu";
    }
    if (!u.resource.empty()) {
      u.total = parse_count(at(capacity, u.resource));
      u.unhealthy = std::max(0LL, u.total - parse_count(at(allocatable, u.resource)));
      for (const auto* p : by_node[u.name]) {
        const long long n = pod_resource(*p, u.mode == NodeMode::Share ? "aliyun.com/gpu-count" : u.resource);
        if (n <= 0) continue;
        u.allocated += n;
        u.pods.push_back({namespace_of(*p), name_of(*p), pod_display_status(*p), n});
      }
    }
    out.push_back(std::move(u));
  }
  std::sort(out.begin(), out.end(), [](const NodeUsage& a, const NodeUsage& b) { return a.name < b.name; });
  return out;
}

}  // namespace trainctl::jobs
