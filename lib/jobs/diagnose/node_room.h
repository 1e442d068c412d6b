// The nodes as the fit check of a pending job sees them (pending_reason.h): what each can still
// give of each extended resource, and the scheduler's filters that decide which nodes a pod may
// go to at all before resources are counted, each as kube-scheduler's default plugin has it:
//   NodeUnschedulable  a cordoned node (spec.unschedulable) takes only a pod that tolerates
//                      node.kubernetes.io/unschedulable:NoSchedule
//                      (pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go)
//   TaintToleration    every NoSchedule and NoExecute taint of the node must be tolerated
//                      (plugins/tainttoleration/taint_toleration.go, with component-helpers
//                      scheduling/corev1 FindMatchingUntoleratedTaint and k8s.io/api core/v1
//                      toleration.go ToleratesTaint). A node that is not Ready counts as one
//                      with node.kubernetes.io/not-ready:NoSchedule, the taint the node lifecycle
//                      controller gives it (TaintNodesByCondition).
//   NodeAffinity       spec.nodeSelector and the required node affinity
//                      (plugins/nodeaffinity/node_affinity.go, with component-helpers
//                      scheduling/corev1/nodeaffinity GetRequiredNodeAffinity: nodeSelector
//                      ANDed with nodeSelectorTerms ORed, each term's expressions ANDed).
// The reasons are worded as those plugins word them, so they read like the scheduler's events.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kube/field_set.h"

namespace trainctl::jobs {

struct NodeTaint {
  std::string key, value, effect;
};

// What a node can still give of each extended resource (a name with a '/': nvidia.com/gpu,
// aliyun.com/gpu...): allocatable minus the requests of the pods on it that have not ended;
// and what the scheduler's filters read of it.
struct NodeRoom {
  std::string name;
  bool ready = true;                         // condition Ready is True
  bool unschedulable = false;                // spec.unschedulable: cordoned
  std::vector<NodeTaint> taints;             // the NoSchedule and NoExecute ones
  std::map<std::string, std::string> labels;  // metadata.labels
  std::map<std::string, long long> allocatable;
  std::map<std::string, long long> free;
};

// Reduces nodes and pods (any order, as they stream in) to NodeRoom.
class NodeRoomBuilder {
 public:
  void add_node(const nlohmann::json& node);
  void add_pod(const nlohmann::json& pod);
  std::vector<NodeRoom> finish();  // by name

 private:
  std::vector<NodeRoom> m_nodes;
  std::map<std::string, std::map<std::string, long long>> m_used;
};

// A pod's requests of extended resources (requests, else limits, summed over containers).
std::map<std::string, long long> pod_extended_requests(const nlohmann::json& pod);

// The fields NodeRoomBuilder reads of a node and of a pod (kube/field_set.h).
const kube::FieldSet& node_room_fields();
const kube::FieldSet& room_pod_fields();

// What of a pod decides the nodes it may go to: spec.tolerations, spec.nodeSelector and
// spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.
class PodPlacement {
 public:
  explicit PodPlacement(const nlohmann::json& pod);
  // "" when the node may take the pod; else the first filter's reason, as the scheduler words
  // it: "node(s) were unschedulable", "node(s) had untolerated taint {KEY: VALUE}",
  // "node(s) didn't match Pod's node affinity/selector".
  std::string refusal(const NodeRoom& node) const;
  // Pods whose placement fields are equal have the same key.
  const std::string& key() const { return m_key; }

 private:
  bool tolerates(const NodeTaint& taint) const;
  bool affinity_matches(const NodeRoom& node) const;
  nlohmann::json m_tolerations, m_selector, m_required;
  std::string m_key;
};

// Which nodes the pods of each distinct placement (PodPlacement::key) may use, and why the
// others refuse them, worked out once per placement: a job's pods share a few.
struct NodeChoice {
  std::vector<bool> may;                      // by the index of the node
  std::map<std::string, long long> refusals;  // the scheduler's reason -> nodes
  // "2 node(s) had untolerated taint {nvidia.com/gpu: present}, 1 node(s) were
  // unschedulable", most nodes first, as the scheduler's FitError lists them.
  std::string refusal_text() const;
};

class NodeChoices {
 public:
  explicit NodeChoices(const std::vector<NodeRoom>& nodes) : m_nodes(nodes) {}
  // The pod's placement key, its nodes worked out on first sight.
  std::string of(const nlohmann::json& pod);
  const NodeChoice& at(const std::string& key) const { return m_by_key.at(key); }

 private:
  const std::vector<NodeRoom>& m_nodes;
  std::map<std::string, NodeChoice> m_by_key;
};

}  // namespace trainctl::jobs
