#include "jobs/cluster/node_usage_live.h"

#include <algorithm>

#include "jobs/json_util.h"
#include "kube/resource.h"

namespace trainctl::jobs {

using nlohmann::json;

namespace {

// What put_pod reads: the claim's fields and the pod's key.
const kube::FieldSet& live_claim_fields(bool keep_pods) {
  auto with_key = [](bool keep) {
    kube::FieldSet f = gpu_claim_fields(keep);
    f.add({"metadata", "namespace"});
    f.add({"metadata", "name"});
    return f;
  };
  static const kube::FieldSet claim = with_key(false), row = with_key(true);
  return keep_pods ? row : claim;
}

}  // namespace

LiveNodeUsage::LiveNodeUsage(bool keep_pods, std::vector<std::string> only)
    : m_keep_pods(keep_pods), m_only(std::move(only)) {}

std::vector<kube::Collection> LiveNodeUsage::collections() {
  kube::ListQuery not_done;
  not_done.field_selector = "status.phase!=Failed,status.phase!=Succeeded";
  if (m_only.size() == 1) not_done.field_selector += ",spec.nodeName=" + m_only.front();
  return {{kube::nodes().collection_path(""), {}, [this] { reset_nodes(); }, [this](json& n) { put_node(n); },
           [this](json& n) { delete_node(n); }, &node_usage_fields()},
          {kube::pods().collection_path(""), not_done, [this] { reset_pods(); }, [this](json& p) { put_pod(p); },
           [this](json& p) { delete_pod(p); }, &live_claim_fields(m_keep_pods)}};
}

bool LiveNodeUsage::wanted(const std::string& node) const {
  return m_only.empty() || std::find(m_only.begin(), m_only.end(), node) != m_only.end();
}

void LiveNodeUsage::reset_nodes() {
  // The claims stay: they are the pods' collection's.
  for (auto it = m_nodes.begin(); it != m_nodes.end();) {
    it->second.usage.reset();
    it = it->second.rows.empty() && it->second.sums == Counts{} ? m_nodes.erase(it) : std::next(it);
  }
}

void LiveNodeUsage::reset_pods() {
  m_claims.clear();
  for (auto it = m_nodes.begin(); it != m_nodes.end();) {
    it->second.sums = {};
    it->second.rows.clear();
    it = it->second.usage ? std::next(it) : m_nodes.erase(it);
  }
}

void LiveNodeUsage::put_node(const json& node) {
  NodeUsage u = node_usage_of(node);
  if (!wanted(u.name)) return;
  std::string name = u.name;
  m_nodes[std::move(name)].usage = std::move(u);
}

void LiveNodeUsage::delete_node(const json& node) {
  auto it = m_nodes.find(name_of(node));
  if (it != m_nodes.end()) it->second.usage.reset();
}

void LiveNodeUsage::forget_claim(const PodKey& key) {
  auto it = m_claims.find(key);
  if (it == m_claims.end()) return;
  LiveNode& n = m_nodes[it->second.node];
  for (size_t r = 0; r < n.sums.size(); ++r)
    if (it->second.counts[r] > 0) n.sums[r] -= it->second.counts[r];
  n.rows.erase(key);
  m_claims.erase(it);
}

void LiveNodeUsage::put_pod(const json& pod) {
  // The pod's claim as the last event left it goes; its claim now (none for a pod that
  // completed, asks no GPU, or is on a node not shown) comes.
  PodKey key{namespace_of(pod), name_of(pod)};
  forget_claim(key);
  auto c = gpu_claim_of(pod, m_keep_pods);
  if (!c || !wanted(c->node)) return;
  LiveNode& n = m_nodes[c->node];
  for (size_t r = 0; r < n.sums.size(); ++r)
    if (c->counts[r] > 0) n.sums[r] += c->counts[r];
  m_claims.insert_or_assign(key, Held{c->node, c->counts});
  if (m_keep_pods) n.rows.insert_or_assign(std::move(key), std::move(*c));
}

void LiveNodeUsage::delete_pod(const json& pod) { forget_claim({namespace_of(pod), name_of(pod)}); }

std::vector<NodeUsage> LiveNodeUsage::snapshot() const {
  // As NodeUsageBuilder::finish(): nodes by name; a node's pods those with a positive count of
  // its resource, in list order (namespace, name).
  std::vector<NodeUsage> out;
  out.reserve(m_nodes.size());
  for (const auto& [name, n] : m_nodes) {
    if (!n.usage) continue;
    out.push_back(*n.usage);
    NodeUsage& u = out.back();
    if (u.resource.empty()) continue;
    const int r = gpu_resource_index(u.resource);
    u.allocated = n.sums[r];
    for (const auto& [key, c] : n.rows) {
      if (c.counts[r] <= 0) continue;
      u.pods.push_back(c.pod);
      u.pods.back().gpus = c.counts[r];
    }
  }
  return out;
}

}  // namespace trainctl::jobs
