// The queue resources of Volcano and Kueue that `queue list` and `get` read, and the paths of
// Kueue's visibility API (an aggregated API, visibility.kueue.x-k8s.io: kueue v0.9.0 to
// v0.14.x serve v1beta1 (v0.9.x also v1alpha1); v0.15.0 to v0.19.2 serve v1beta2 and v1beta1
// and prefer v1beta2, pkg/visibility/server.go, config/components/visibility/apiservice_*.yaml;
// the PendingWorkloadsSummary is the same in both, apis/visibility/v1beta{1,2}/types.go).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "kube/resource.h"

namespace trainctl::kube {

const Resource& volcano_queues();        // scheduling.volcano.sh/v1beta1 queues, cluster-scoped
const Resource& kueue_cluster_queues();  // kueue.x-k8s.io/v1beta1 clusterqueues, cluster-scoped
const Resource& kueue_local_queues();    // kueue.x-k8s.io/v1beta1 localqueues
const Resource& kueue_workloads();       // kueue.x-k8s.io/v1beta1 workloads

inline constexpr const char* kKueueGroup = "kueue.x-k8s.io";
inline constexpr const char* kKueueVisibilityGroup = "visibility.kueue.x-k8s.io";

// The version of the visibility API to use, from its APIGroup discovery document
// (api_group_path(kKueueVisibilityGroup)): the server's preferred version when trainctl reads
// it, else the first of its versions that trainctl reads (v1beta2, v1beta1); "" when none.
std::string kueue_visibility_version(const nlohmann::json& api_group);

// GET .../clusterqueues/CQ/pendingworkloads and
// .../namespaces/NS/localqueues/LQ/pendingworkloads in `version`: a PendingWorkloadsSummary.
std::string cluster_queue_pending_path(const std::string& version, const std::string& cluster_queue);
std::string local_queue_pending_path(const std::string& version, const std::string& ns,
                                     const std::string& local_queue);

}  // namespace trainctl::kube
