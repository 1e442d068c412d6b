// top node -r: the per-node figures kept current from one list and a watch of nodes and of
// the pods that have not completed (kube/reflector.h). A node is held as its NodeUsage, a pod
// as its claim on its node's GPU resources (node_usage.h), so memory follows nodes and GPU
// pods. Each event changes the figures by what it changes: a pod event takes the pod's old
// claim (as the last event left it) off its node's sums and adds the new one, and with -d
// moves the pod's row in its node's rows. A snapshot copies the figures, node by node; it adds
// up no claims.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "jobs/cluster/node_usage.h"
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
  using Counts = std::array<long long, 3>;
  using PodKey = std::pair<std::string, std::string>;  // namespace, name
  struct LiveNode {
    std::optional<NodeUsage> usage;  // node_usage_of() of the node; nullopt while only pods name it
    Counts sums{};                   // Σ of the positive counts of the claims on it, per resource
    std::map<PodKey, PodGpuClaim> rows;  // with keep_pods: the claims on it, in list order
  };
  // What a pod claims, to take back when it changes or goes.
  struct Held {
    std::string node;
    Counts counts{};
  };

  bool wanted(const std::string& node) const;
  void forget_claim(const PodKey& key);
  void reset_nodes();
  void reset_pods();

  bool m_keep_pods;
  std::vector<std::string> m_only;
  std::map<std::string, LiveNode> m_nodes;  // by name: the snapshot's order
  std::map<PodKey, Held> m_claims;
};

}  // namespace trainctl::jobs
