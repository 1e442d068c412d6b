// GPU capacity and allocation per node, as Arena's top node computes it (pkg/topnode):
// a node is GPUShare (allocatable aliyun.com/gpu-mem), GPUTopology (label
// ack.node.gpu.schedule=topology; resource aliyun.com/gpu), GPUExclusive (allocatable
// nvidia.com/gpu in 1..100) or Normal. Total = capacity of its GPU resource, Allocated = Σ
// of that resource's limits over the node's pods that have not completed, Unhealthy =
// capacity - allocatable.
#pragma once

#include <array>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "jobs/time.h"
#include "kube/client.h"
#include "kube/field_set.h"

namespace trainctl::jobs {

enum class NodeMode { None, Exclusive, Topology, Share };
std::string mode_name(NodeMode m);  // none, exclusive, topology, share

struct NodePod {
  std::string namespace_;
  std::string name;
  std::string status;  // kubectl's pod status
  long long gpus = 0;
  std::optional<TimePoint> created;  // metadata.creationTimestamp
};

struct NodeUsage {
  std::string name;
  std::string ip;      // InternalIP, else the first address
  std::string role;    // node-role.kubernetes.io/<r> labels joined by ",", kubernetes.io/role, or <none>
  std::string status;  // ready | notready
  NodeMode mode = NodeMode::None;
  std::string resource;  // nvidia.com/gpu, aliyun.com/gpu, aliyun.com/gpu-count, ""
  long long total = 0;
  long long allocated = 0;
  long long unhealthy = 0;
  std::vector<NodePod> pods;  // pods on the node asking for its GPU resource

  nlohmann::ordered_json to_json() const;
};

// A pod's claim on the GPU resources of its node: what the builder keeps of a pod.
struct PodGpuClaim {
  std::string node;
  NodePod pod;  // namespace, name, status and created only when kept; gpus set by finish()
  std::array<long long, 3> counts{};  // Σ limits over containers of nvidia.com/gpu, aliyun.com/gpu, aliyun.com/gpu-count
};
// The claim of a pod on a node; nullopt for a completed pod, one not scheduled, or one that
// asks for no GPU resource. Without `keep_pod` only node and counts are filled.
std::optional<PodGpuClaim> gpu_claim_of(const nlohmann::json& pod, bool keep_pod);

// The position of a GPU resource (NodeUsage::resource) in PodGpuClaim::counts.
int gpu_resource_index(const std::string& resource);

// The fields gpu_claim_of reads of a pod, and node_usage_of of a node (kube/field_set.h).
const kube::FieldSet& gpu_claim_fields(bool keep_pod);
const kube::FieldSet& node_usage_fields();
// What a node reduces to: name, address, role, status, GPU mode and resource, total and
// unhealthy GPUs (allocated and pods come from the pods' claims).
NodeUsage node_usage_of(const nlohmann::json& node);

// Builds the per-node figures while nodes and pods stream in (in any order): a node is
// reduced to its NodeUsage at once, a pod to the GPU resources it asks for on its node.
// Without `keep_pods` only per-node sums are kept (NodeUsage::pods stays empty), so the
// memory used depends on the number of nodes, not of pods.
class NodeUsageBuilder {
 public:
  // `only`: node names to keep (empty = all).
  explicit NodeUsageBuilder(bool keep_pods, std::vector<std::string> only = {});
  void add_node(const nlohmann::json& node);
  void add_node(NodeUsage node);  // of node_usage_of()
  // Completed pods and pods that ask for no GPU resource are ignored.
  void add_pod(const nlohmann::json& pod);
  void add_claim(PodGpuClaim claim);
  // One entry per node read, sorted by name.
  std::vector<NodeUsage> finish();

 private:
  using Counts = std::array<long long, 3>;
  struct NodeState {
    Counts sums{};  // over pods with a positive count, per resource
    std::vector<PodGpuClaim> pods;
  };
  bool wanted(const std::string& node) const;

  bool m_keep_pods;
  std::vector<std::string> m_only;
  std::vector<NodeUsage> m_nodes;
  std::map<std::string, NodeState> m_by_node;
};

// The same for lists already read (tests, small clusters).
std::vector<NodeUsage> node_usage(const std::vector<nlohmann::json>& nodes,
                                  const std::vector<nlohmann::json>& pods);

// Reads the nodes and the pods that have not completed (fieldSelector status.phase, both
// lists in one parallel round, paged) into per-node figures, of the nodes in `only` (empty:
// all); with one node in `only` only the pods scheduled on it are listed. Throws
// NotFoundError naming a node of `only` that the cluster does not have.
std::vector<NodeUsage> read_node_usage(kube::Client& client, const std::vector<std::string>& only,
                                       bool keep_pods);

// NotFoundError "node NAME not found" for the first of `only` that `usage` lacks.
void check_nodes_found(const std::vector<NodeUsage>& usage, const std::vector<std::string>& only);

}  // namespace trainctl::jobs
