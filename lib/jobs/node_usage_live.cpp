#include "jobs/node_usage_live.h"

#include <algorithm>
#include <tuple>

#include "jobs/json_util.h"
#include "kube/resource.h"

namespace trainctl::jobs {

using nlohmann::json;

namespace {

std::string pod_key(const json& pod) { return namespace_of(pod) + "/" + name_of(pod); }

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
  return {{kube::nodes().collection_path(""), {}, [this] { m_nodes.clear(); },
           [this](json& n) { put_node(n); }, [this](json& n) { delete_node(n); }, &node_usage_fields()},
          {kube::pods().collection_path(""), not_done,
           [this] {
             m_claims.clear();
             m_sums.clear();
           },
           [this](json& p) { put_pod(p); }, [this](json& p) { delete_pod(p); }, &live_claim_fields(m_keep_pods)}};
}

void LiveNodeUsage::put_node(const json& node) {
  NodeUsage u = node_usage_of(node);
  std::string name = u.name;
  m_nodes.insert_or_assign(std::move(name), std::move(u));
}

void LiveNodeUsage::delete_node(const json& node) { m_nodes.erase(name_of(node)); }

void LiveNodeUsage::claim(const PodGpuClaim& c, long long sign) {
  auto& sums = m_sums[c.node];
  for (size_t r = 0; r < sums.size(); ++r) sums[r] += sign * c.counts[r];
}

void LiveNodeUsage::forget_claim(const std::string& key) {
  auto it = m_claims.find(key);
  if (it == m_claims.end()) return;
  claim(it->second, -1);
  m_claims.erase(it);
}

void LiveNodeUsage::put_pod(const json& pod) {
  // A pod that completed, or asks no GPU, claims nothing (any more).
  const std::string key = pod_key(pod);
  forget_claim(key);
  auto c = gpu_claim_of(pod, m_keep_pods);
  if (!c) return;
  claim(*c, +1);
  m_claims.insert_or_assign(key, std::move(*c));
}

void LiveNodeUsage::delete_pod(const json& pod) { forget_claim(pod_key(pod)); }

std::vector<NodeUsage> LiveNodeUsage::snapshot() const {
  NodeUsageBuilder b(m_keep_pods, m_only);
  for (const auto& [name, u] : m_nodes) b.add_node(u);
  if (m_keep_pods) {
    for (const auto& [key, c] : m_claims) b.add_claim(c);
  } else {
    // One claim per node carrying its sums: the same totals without walking every pod.
    for (const auto& [node, sums] : m_sums) b.add_claim({node, {}, sums});
  }
  auto out = b.finish();
  // read_node_usage() keeps each node's pods in list order; a map's order is none.
  for (auto& n : out)
    std::sort(n.pods.begin(), n.pods.end(), [](const NodePod& a, const NodePod& b) {
      return std::tie(a.namespace_, a.name) < std::tie(b.namespace_, b.name);
    });
  return out;
}

}  // namespace trainctl::jobs
