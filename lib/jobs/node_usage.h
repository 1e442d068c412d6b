// GPU capacity and allocation per node, as Arena's top node computes it (pkg/topnode):
// a node is GPUShare (allocatable aliyun.com/gpu-mem), GPUTopology (label
// ack.node.gpu.schedule=topology; resource aliyun.com/gpu), GPUExclusive (allocatable
// nvidia.com/gpu in 1..100) or Normal. Total = capacity of its GPU resource, Allocated = Σ
// of that resource's limits over the node's pods that have not completed, Unhealthy =
// capacity - allocatable.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "jobs/time.h"

namespace trainctl::jobs {

enum class NodeMode { None, Exclusive, Topology, Share };
std::string mode_name(NodeMode m);  // none, exclusive, topology, share

struct NodePod {
  std::string namespace_;
  std::string name;
  std::string status;  // kubectl's pod status
  long long gpus = 0;
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

// One entry per node (sorted by name); `pods` are the cluster's non-completed pods.
std::vector<NodeUsage> node_usage(const std::vector<nlohmann::json>& nodes,
                                  const std::vector<nlohmann::json>& pods);

}  // namespace trainctl::jobs
