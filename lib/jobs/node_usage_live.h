// top node -r: the per-node figures kept current from one list and a watch of nodes and of
// the pods that have not completed (kube/reflector.h). A node is held as its NodeUsage, a pod
// as its claim on its node's GPU resources (node_usage.h), so memory follows nodes and GPU
// pods, and each refresh costs the events since the last one: every event updates its node's
// sums, so a snapshot without pods (top node without -d) walks the nodes, not the claims.
#pragma once

#include <array>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "jobs/node_usage.h"
#include "kube/reflector.h"

namespace trainctl::jobs {

class LiveNodeUsage {
 public:
  // `keep_pods` and `only` as for NodeUsageBuilder.
  LiveNodeUsage(bool keep_pods, std::vector<std::string> only);

  // The two collections to list and watch: nodes, and pods not Failed or Succeeded (one node
  // named: only its pods).
  std::vector<kube::Collection> collections();
  // The figures as of the last event handled, as read_node_usage() computes them.
  std::vector<NodeUsage> snapshot() const;

  void put_node(const nlohmann::json& node);
  void delete_node(const nlohmann::json& node);
  void put_pod(const nlohmann::json& pod);
  void delete_pod(const nlohmann::json& pod);

 private:
  bool m_keep_pods;
  std::vector<std::string> m_only;
  std::map<std::string, NodeUsage> m_nodes;
  std::unordered_map<std::string, PodGpuClaim> m_claims;  // by namespace/name
  std::unordered_map<std::string, std::array<long long, 3>> m_sums;  // by node: Σ of its claims' counts

  void claim(const PodGpuClaim& c, long long sign);  // adds (+1) or takes away (-1) from m_sums
  void forget_claim(const std::string& key);
};

}  // namespace trainctl::jobs
