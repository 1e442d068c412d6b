// A kube-scheduler stand-in: binds Pending pods without spec.nodeName to nodes with enough
// free allocatable nvidia.com/gpu, aliyun.com/gpu, cpu and memory, honouring nodeSelector,
// NoSchedule/NoExecute taints vs tolerations, cordoned and NotReady nodes. Gangs are placed
// all-or-nothing: Volcano PodGroups (annotation scheduling.k8s.io/group-name, minMember) and
// coscheduling labels (pod-group.scheduling.sigs.k8s.io/name + .../min-available).
// Pods that cannot be placed get PodScheduled=False/Unschedulable and a FailedScheduling
// event worded like kube-scheduler's ("0/6 nodes are available: 3 Insufficient nvidia.com/gpu.").
#pragma once

#include <map>
#include <mutex>
#include <set>
#include <string>

#include "kubesim/controllers/context.h"

namespace kubesim {

using Resources = std::map<std::string, int64_t>;  // cpu in millicores

// The resources a pod requests (requests, else limits) for the resources the scheduler counts.
Resources pod_requests(const json& pod);

class Scheduler {
 public:
  explicit Scheduler(Context& ctx) : m_ctx(ctx) {}
  // Keeps node capacity and per-node usage current; called from the store's watch stream.
  void observe(const WatchEvent& ev);
  // Tries to place every pending pod. Returns true when it bound at least one.
  bool schedule();
  bool has_pending() const;

 private:
  struct NodeInfo {
    std::string name;
    std::string ip;
    Resources allocatable;
    std::map<std::string, std::string> labels;
    json taints = json::array();
    bool unschedulable = false;
    bool ready = true;
  };
  struct Placement {
    std::string node;
    std::string failure;  // message when no node fits
  };
  Placement place(const json& pod, std::map<std::string, Resources>& used) const;
  void bind(const json& pod, const std::string& node);
  void mark_unschedulable(const json& pod, const std::string& message);
  // scheduler_podgroup.cpp: a Volcano gang that cannot be placed, as volcano-scheduler's gang
  // plugin reports it on its PodGroup (condition Unschedulable and a Warning event).
  void mark_gang_unschedulable(const json& pod, int64_t min, int64_t bound, size_t pending);
  std::pair<std::string, int64_t> gang_of(const json& pod) const;  // key "ns/name", minMember
  int64_t bound_members(const json& pod, const std::string& gang) const;

  Context& m_ctx;
  mutable std::mutex m_mutex;
  std::map<std::string, NodeInfo> m_nodes;
  std::map<std::string, Resources> m_used;                                // node -> used
  std::map<std::string, std::pair<std::string, Resources>> m_accounted;   // ns/pod -> (node, req)
  std::set<std::pair<std::string, std::string>> m_pending;                // (ns, name)
  std::map<std::string, std::pair<std::string, TimePoint>> m_last_event;  // pod uid -> (msg, time)
};

}  // namespace kubesim
