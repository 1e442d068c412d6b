// What kubesim's minimal Kueue (v0.19.2) shares between its controllers
// (controllers/kueue_*.cpp) and the REST layer (the job webhook, the visibility API): the
// resources, the jobs it manages, the pending order of a ClusterQueue's workloads.
// Served only when Kueue's CRDs are loaded (--schemas DIR with kueue.x-k8s.io_*.yaml).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "kubesim/kueue_config.h"
#include "kubesim/store.h"

namespace kubesim {

// pkg/controller/constants/constants.go QueueLabel.
inline constexpr const char* kKueueQueueLabel = "kueue.x-k8s.io/queue-name";

struct KueueTypes {
  const ResourceType* cluster_queues = nullptr;  // kueue.x-k8s.io, the storage version (v1beta2)
  const ResourceType* local_queues = nullptr;
  const ResourceType* workloads = nullptr;
  const ResourceType* resource_flavors = nullptr;
  // All four null when ClusterQueues, LocalQueues or Workloads are not served.
  static KueueTypes find(const Store& store);
  bool served() const { return cluster_queues && local_queues && workloads; }
};

// The jobs Kueue's jobframework manages here: batch/v1 Job (spec.suspend), kubeflow.org
// PyTorchJob, TFJob (v1) and MPIJob (v2beta1) (spec.runPolicy.suspend).
bool kueue_manages(const ResourceType& rt);
bool kueue_job_suspended(const ResourceType& rt, const json& job);
void set_kueue_job_suspend(const ResourceType& rt, json& job, bool suspend);

// Kueue's job webhook on create (jobframework/defaults.go ApplyDefaultForSuspend): a managed
// job with the queue-name label is suspended. Nothing happens when Kueue is not served or the
// job's integration is not enabled in `config`.
void kueue_webhook_default(const KueueConfig& config, const Store& store, const ResourceType& rt, json& obj);

// The ClusterQueue a workload's LocalQueue (spec.queueName in its namespace) points to; ""
// when the LocalQueue does not exist.
std::string kueue_cluster_queue_of(const Store& store, const KueueTypes& t, const json& workload);

// Sets a metav1.Condition in status.conditions (apimachinery meta.SetStatusCondition): the
// transition time changes only with the status. Returns whether anything changed.
bool kueue_set_condition(json& status, const std::string& type, bool value, const std::string& reason,
                         const std::string& message, const std::string& now);
// Neither QuotaReserved nor Finished.
bool kueue_workload_pending(const json& workload);

// The pending workloads of a ClusterQueue in queue order: priority (spec.priority, higher
// first), then creationTimestamp, then namespace/name (pkg/cache/queue cluster_queue.go
// queueOrderingFunc: priority, then the queue timestamp).
std::vector<std::shared_ptr<const json>> kueue_pending_workloads(const Store& store, const KueueTypes& t,
                                                                 const std::string& cluster_queue);

}  // namespace kubesim
