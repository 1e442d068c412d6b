// Losing a node's pods on purpose: POST /kubesim/nodes/NAME/evict deletes every pod bound to
// node NAME that is not already being deleted, with the pod's own grace period, as Kubernetes'
// taint-eviction controller does for a NoExecute taint (k8s.io/kubernetes
// pkg/controller/tainteviction/taint_eviction.go deletePodHandler: Pods(ns).Delete with empty
// DeleteOptions). The node stays schedulable; the pods' controllers decide what comes back.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "kubesim/store.h"

namespace kubesim {

// Throws not_found when the node does not exist. Answers {"node": NAME, "evicted": ["NS/POD", ...]}.
nlohmann::json evict_node_pods(Store& store, const std::string& node);

}  // namespace kubesim
