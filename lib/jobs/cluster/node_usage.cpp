#include "jobs/cluster/node_usage.h"

#include <algorithm>
#include <map>

#include "core/errors.h"
#include "jobs/gpu.h"
#include "jobs/json_util.h"
#include "jobs/pod_status.h"
#include "kube/list_reads.h"

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

bool node_ready(const json& node) { return condition_true(node, "Ready"); }

}  // namespace

int gpu_resource_index(const std::string& resource) {
  if (resource == "nvidia.com/gpu") return 0;
  if (resource == "aliyun.com/gpu") return 1;
  return 2;  // aliyun.com/gpu-count
}

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

NodeUsageBuilder::NodeUsageBuilder(bool keep_pods, std::vector<std::string> only)
    : m_keep_pods(keep_pods), m_only(std::move(only)) {}

bool NodeUsageBuilder::wanted(const std::string& node) const {
  return m_only.empty() || std::find(m_only.begin(), m_only.end(), node) != m_only.end();
}

NodeUsage node_usage_of(const json& node) {
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
  }
  return u;
}

std::optional<PodGpuClaim> gpu_claim_of(const json& pod, bool keep_pod) {
  PodGpuClaim c;
  c.node = str(at(pod, "spec"), "nodeName");
  if (c.node.empty() || pod_completed(pod)) return std::nullopt;
  static const std::array<const char*, 3> resources = {"nvidia.com/gpu", "aliyun.com/gpu", "aliyun.com/gpu-count"};
  bool any = false;
  for (size_t r = 0; r < resources.size(); ++r) {
    for (const auto& ct : at_path(pod, {"spec", "containers"}))
      c.counts[r] += parse_count(at(at_path(ct, {"resources", "limits"}), resources[r]));
    any = any || c.counts[r] > 0;
  }
  if (!any) return std::nullopt;
  if (keep_pod)
    c.pod = {namespace_of(pod), name_of(pod), pod_display_status(pod), 0,
             parse_time(str(at(pod, "metadata"), "creationTimestamp"))};
  return c;
}

const kube::FieldSet& gpu_claim_fields(bool keep_pod) {
  // The node, the phase (pod_completed) and the containers' limits; the listed pod's row
  // adds what pod_display_status reads.
  static const kube::FieldSet claim = {"spec.nodeName", "spec.containers.resources.limits", "status.phase"};
  static const kube::FieldSet row = {"metadata.name",   "metadata.namespace", "metadata.creationTimestamp",
                                     "metadata.deletionTimestamp", "spec.nodeName",
                                     "spec.containers.resources.limits", "spec.initContainers", "status"};
  return keep_pod ? row : claim;
}

const kube::FieldSet& node_usage_fields() {
  // node_usage_of: the name and labels (role, GPU mode), addresses (node_ip), conditions
  // (node_ready), capacity and allocatable.
  static const kube::FieldSet fields = {"metadata.name", "metadata.labels", "status.addresses", "status.conditions",
                                        "status.capacity", "status.allocatable"};
  return fields;
}

void NodeUsageBuilder::add_node(const json& node) {
  if (wanted(name_of(node))) m_nodes.push_back(node_usage_of(node));
}

void NodeUsageBuilder::add_node(NodeUsage node) {
  if (wanted(node.name)) m_nodes.push_back(std::move(node));
}

void NodeUsageBuilder::add_pod(const json& pod) {
  if (!wanted(str(at(pod, "spec"), "nodeName"))) return;
  if (auto c = gpu_claim_of(pod, m_keep_pods)) add_claim(std::move(*c));
}

void NodeUsageBuilder::add_claim(PodGpuClaim claim) {
  if (!wanted(claim.node)) return;
  auto& state = m_by_node[claim.node];
  for (size_t r = 0; r < claim.counts.size(); ++r)
    if (claim.counts[r] > 0) state.sums[r] += claim.counts[r];
  if (m_keep_pods) state.pods.push_back(std::move(claim));
}

std::vector<NodeUsage> NodeUsageBuilder::finish() {
  for (auto& u : m_nodes) {
    if (u.resource.empty()) continue;
    auto it = m_by_node.find(u.name);
    if (it == m_by_node.end()) continue;
    const int r = gpu_resource_index(u.resource);
    u.allocated = it->second.sums[r];
    for (auto& c : it->second.pods) {
      if (c.counts[r] <= 0) continue;
      c.pod.gpus = c.counts[r];
      u.pods.push_back(std::move(c.pod));
    }
  }
  std::sort(m_nodes.begin(), m_nodes.end(), [](const NodeUsage& a, const NodeUsage& b) { return a.name < b.name; });
  return std::move(m_nodes);
}

std::vector<NodeUsage> node_usage(const std::vector<json>& nodes, const std::vector<json>& pods) {
  NodeUsageBuilder b(true);
  for (const auto& n : nodes) b.add_node(n);
  for (const auto& p : pods) b.add_pod(p);
  return b.finish();
}

std::vector<NodeUsage> read_node_usage(kube::Client& client, const std::vector<std::string>& only,
                                       bool keep_pods) {
  NodeUsageBuilder builder(keep_pods, only);
  kube::ListQuery not_done;
  not_done.field_selector = "status.phase!=Failed,status.phase!=Succeeded";
  // One node asked for: only the pods scheduled on it.
  if (only.size() == 1) not_done.field_selector += ",spec.nodeName=" + only.front();
  std::vector<kube::StreamRead> reads = {
      kube::list_read(kube::nodes(), "", {}, [&](json& n) { builder.add_node(n); }),
      kube::list_read(kube::pods(), "", not_done, [&](json& p) { builder.add_pod(p); })};
  reads[0].fields = &node_usage_fields();
  reads[1].fields = &gpu_claim_fields(keep_pods);
  kube::stream_all(client, reads, kube::kPageSize, [&] { builder = NodeUsageBuilder(keep_pods, only); });
  auto usage = builder.finish();
  check_nodes_found(usage, only);
  return usage;
}

void check_nodes_found(const std::vector<NodeUsage>& usage, const std::vector<std::string>& only) {
  for (const auto& want : only)
    if (std::none_of(usage.begin(), usage.end(), [&](const NodeUsage& u) { return u.name == want; }))
      throw NotFoundError("node " + want + " not found");
}

}  // namespace trainctl::jobs
