#include "kube/queue_resources.h"

namespace trainctl::kube {

namespace {

const Resource& visibility(bool local) {
  static const Resource cq{"visibility.kueue.x-k8s.io", "v1beta1", "clusterqueues", "ClusterQueue", false};
  static const Resource lq{"visibility.kueue.x-k8s.io", "v1beta1", "localqueues", "LocalQueue", true};
  return local ? lq : cq;
}

}  // namespace

const Resource& volcano_queues() {
  static const Resource r{"scheduling.volcano.sh", "v1beta1", "queues", "Queue", false};
  return r;
}
const Resource& kueue_cluster_queues() {
  static const Resource r{"kueue.x-k8s.io", "v1beta1", "clusterqueues", "ClusterQueue", false};
  return r;
}
const Resource& kueue_local_queues() {
  static const Resource r{"kueue.x-k8s.io", "v1beta1", "localqueues", "LocalQueue", true};
  return r;
}
const Resource& kueue_workloads() {
  static const Resource r{"kueue.x-k8s.io", "v1beta1", "workloads", "Workload", true};
  return r;
}

std::string cluster_queue_pending_path(const std::string& cluster_queue) {
  return visibility(false).subresource_path("", cluster_queue, "pendingworkloads");
}

std::string local_queue_pending_path(const std::string& ns, const std::string& local_queue) {
  return visibility(true).subresource_path(ns, local_queue, "pendingworkloads");
}

}  // namespace trainctl::kube
