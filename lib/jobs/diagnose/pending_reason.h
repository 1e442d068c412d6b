// Why a job is pending, from what the cluster says about it: the scheduler's FailedScheduling
// events (kube-scheduler's FitError text, aggregated across pods), the PodGroup of a gang
// (Volcano's Unschedulable condition, phase Pending vs Inqueue, minMember), an operator's
// refused pod creates (kube-apiserver's "exceeded quota" in FailedCreate events), image pulls
// that fail (ErrImagePull, ImagePullBackOff), and a fit check of the pods' extended resources
// (GPUs) against the nodes. Pure functions over API objects; pending_query.h reads them.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>
#include "jobs/diagnose/node_room.h"

namespace trainctl::jobs {

struct PendingReason {
  // ExceededQuota, ImagePullBackOff, ErrImagePull, GangUnschedulable, PodGroupPending,
  // Unschedulable; "" when nothing explains it.
  std::string reason;
  std::string message;               // one line
  std::vector<std::string> details;  // further causes and the fit check, one line each
  bool empty() const { return reason.empty(); }
  nlohmann::ordered_json to_json() const;  // {reason, message, details}
};

// A pod not bound to a node and not ended: what the fit check and the gang minimum are about.
// Binding is what sets spec.nodeName (kube-apiserver pkg/registry/core/pod/storage/storage.go,
// BindingREST.setPodHostAndAnnotations, after kube-scheduler's bind).
bool pod_unscheduled(const nlohmann::json& pod);

// One diagnosis each; empty when it has nothing to say.
PendingReason quota_refusal(const std::vector<nlohmann::json>& events);
PendingReason image_pull_failure(const std::vector<nlohmann::json>& pods);
PendingReason scheduling_failure(const std::vector<nlohmann::json>& pods,
                                 const std::vector<nlohmann::json>& events);
PendingReason gang_unschedulable(const std::vector<nlohmann::json>& pod_groups);
// Lines for the unscheduled pods' extended resources no node can give: "needs 4 ×
// aliyun.com/gpu; no node offers aliyun.com/gpu — did you mean --gpus without --gputopology?",
// "needs 8 GPUs on one node, the most free on any node is 2". Only the nodes a pod may go to
// count for it (PodPlacement, node_room.h: cordons, taints against its tolerations, its
// nodeSelector and required node affinity); "needs 8 GPUs on one node; no node may take it: 2
// node(s) had untolerated taint {nvidia.com/gpu: present}" when there is none.
std::vector<std::string> fit_check(const std::vector<nlohmann::json>& pods,
                                   const std::vector<NodeRoom>& nodes);
// How many of the unscheduled pods the nodes can take now (first fit, largest requests first,
// each pod on the nodes it may go to).
long long placeable_pods(const std::vector<nlohmann::json>& pods, const std::vector<NodeRoom>& nodes);

struct PendingFacts {
  std::vector<nlohmann::json> pods;        // the job's pods
  std::vector<nlohmann::json> events;      // Warning events of the job, its pods, its PodGroup
  std::vector<nlohmann::json> pod_groups;  // the job's PodGroups
  std::vector<NodeRoom> nodes;
  bool nodes_read = true;           // false: the fit check and the gang minimum are left out
  std::vector<std::string> unread;  // what could not be read, "nodes (403 Forbidden)": a last detail
};

// The first diagnosis that explains (quota, image pull, gang, scheduling, fit check,
// PodGroup phase), with the others' messages, the gang minimum against what the nodes can
// place, the fit check and what could not be read as details.
PendingReason diagnose_pending(const PendingFacts& facts);

// The short reason list -o wide shows for a pending job from its pods alone: ImagePullBackOff
// or ErrImagePull (a container waiting so), Unschedulable (PodScheduled False); "" otherwise.
std::string pod_pending_reason(const nlohmann::json& pod);
// From a Warning event about a job or its PodGroup: ExceededQuota (a refused pod create),
// GangUnschedulable (a PodGroup's Unschedulable event); "" otherwise.
std::string event_pending_reason(const nlohmann::json& event);

}  // namespace trainctl::jobs
