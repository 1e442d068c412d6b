// The queue resources of Volcano and Kueue that `queue list` and `get` read, and the paths of
// Kueue's visibility API (an aggregated API: visibility.kueue.x-k8s.io/v1beta1, kueue
// apis/visibility/v1beta1/types.go at v0.19.2).
#pragma once

#include <string>

#include "kube/resource.h"

namespace trainctl::kube {

const Resource& volcano_queues();        // scheduling.volcano.sh/v1beta1 queues, cluster-scoped
const Resource& kueue_cluster_queues();  // kueue.x-k8s.io/v1beta1 clusterqueues, cluster-scoped
const Resource& kueue_local_queues();    // kueue.x-k8s.io/v1beta1 localqueues
const Resource& kueue_workloads();       // kueue.x-k8s.io/v1beta1 workloads

// GET .../clusterqueues/CQ/pendingworkloads and
// .../namespaces/NS/localqueues/LQ/pendingworkloads: a PendingWorkloadsSummary.
std::string cluster_queue_pending_path(const std::string& cluster_queue);
std::string local_queue_pending_path(const std::string& ns, const std::string& local_queue);

}  // namespace trainctl::kube
