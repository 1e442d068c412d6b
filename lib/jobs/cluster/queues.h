// The queues jobs wait in: Volcano Queues (counted by their PodGroups' phases, as vcctl
// `queue list` counts them: volcano v1.15.1 pkg/cli/queue/list.go), Kueue ClusterQueues and
// LocalQueues (kueue v0.19.2 apis/kueue/v1beta1 clusterqueue_types.go, localqueue_types.go)
// and the pending workloads of Kueue's visibility API with their positions.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "kube/client.h"

namespace trainctl::jobs {

struct TrainingJob;

struct VolcanoQueue {
  std::string name, state, parent;
  std::int64_t weight = 0;
  nlohmann::json capability = nlohmann::json::object();  // spec.capability
  nlohmann::json allocated = nlohmann::json::object();   // status.allocated
  std::int64_t inqueue = 0, pending = 0, running = 0, unknown = 0, completed = 0;
};

// One resource of one flavor of a ClusterQueue: its nominal quota and what admitted
// workloads use (status.flavorsUsage) and reserve (status.flavorsReservation).
struct FlavorQuota {
  std::string flavor, resource, nominal, used, reserved;
};

struct ClusterQueue {
  std::string name, cohort, strategy;
  std::vector<FlavorQuota> quotas;
  std::int64_t pending = 0, reserving = 0, admitted = 0;
};

struct LocalQueue {
  std::string namespace_, name, cluster_queue;
  std::int64_t pending = 0, reserving = 0, admitted = 0;
};

struct QueueOverview {
  bool volcano = false;  // Volcano's Queues are served
  bool kueue = false;    // Kueue's ClusterQueues are served
  std::vector<VolcanoQueue> volcano_queues;
  std::vector<ClusterQueue> cluster_queues;
  std::vector<LocalQueue> local_queues;
};

// Queues, PodGroups, ClusterQueues and LocalQueues (in ns; "" = all namespaces) in one
// parallel round; a resource answered 404 is not installed.
QueueOverview read_queues(kube::Client& client, const std::string& ns);

struct PendingWorkload {
  std::string namespace_, name, local_queue;
  std::int64_t priority = 0, position_in_cluster_queue = 0, position_in_local_queue = 0;
  std::string owner_kind, owner_name;  // the job it stands for (its first ownerReference)
};

// The version of Kueue's visibility API to read, chosen by discovery (the group's preferred
// version, else the first trainctl reads: kube::kueue_visibility_version), so the views keep
// working when a Kueue release stops serving v1beta1; "" when the API is not served.
std::string discover_visibility_version(kube::Client& client);
// The pending workloads of a ClusterQueue in queue order, from the visibility API in
// `version` (discover_visibility_version); NotFoundError when the API ("" version) or the
// ClusterQueue is missing.
std::vector<PendingWorkload> read_pending_workloads(kube::Client& client, const std::string& version,
                                                    const std::string& cluster_queue);
std::vector<PendingWorkload> parse_pending_workloads(const nlohmann::json& summary);

// Where a job waits: its Kueue Workload (owned by the job) or its Volcano PodGroup.
struct JobQueue {
  std::string kind;           // "kueue" or "volcano"
  std::string name;           // the LocalQueue (Kueue) or the Queue (Volcano)
  std::string cluster_queue;  // Kueue only
  std::string phase;  // Kueue: Pending, QuotaReserved, Admitted, Finished; Volcano: the PodGroup phase
  std::optional<std::int64_t> position;  // in the ClusterQueue, from 0, while pending (Kueue)
  nlohmann::ordered_json to_json() const;  // {name, kind, position, clusterQueue, phase}
};

// Reads the job's queue; nullopt when neither Kueue nor Volcano holds it.
std::optional<JobQueue> read_job_queue(kube::Client& client, const TrainingJob& job);
// The second step of read_job_queue: a Kueue job still pending gets its ClusterQueue and its
// position in it (discovery of the visibility API, then the LocalQueue and its pending
// workloads); any other queue is left as it is.
void read_queue_position(kube::Client& client, const TrainingJob& job, JobQueue& queue);

// The first step of read_job_queue (the Workloads and PodGroups of the job's namespace) done
// in the round that explains a pending job (pending_query.h), so that get of a pending job
// takes two rounds of requests, not three.
struct QueueRead {
  bool read = false;              // false: not read in that round (read_job_queue() reads it)
  std::optional<JobQueue> queue;  // job_queue_of() of what was read
  std::string error;              // a list answered with an error other than 404: the queue is not known
};
// The same from the objects already read (the job's name and uid; Workloads and PodGroups of
// its namespace).
std::optional<JobQueue> job_queue_of(const std::string& job_name, const std::string& job_uid,
                                     const std::vector<nlohmann::json>& workloads,
                                     const std::vector<nlohmann::json>& pod_groups);

}  // namespace trainctl::jobs
