// The views of `queue list`, `queue pending` and the queue line of `get`: Volcano Queues,
// Kueue ClusterQueues and LocalQueues, pending workloads with their positions.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/iostreams.h"
#include "jobs/cluster/queues.h"

namespace trainctl::print {

// vcctl's columns plus resources: NAME STATE WEIGHT CAPABILITY ALLOCATED INQUEUE PENDING RUNNING.
std::string volcano_queues_view(const std::vector<jobs::VolcanoQueue>& queues, const IOStreams& io);
// One row per flavor and resource: NAME COHORT FLAVOR RESOURCE NOMINAL USED PENDING ADMITTED.
std::string cluster_queues_view(const std::vector<jobs::ClusterQueue>& queues, const IOStreams& io);
// NAMESPACE NAME CLUSTERQUEUE PENDING ADMITTED.
std::string local_queues_view(const std::vector<jobs::LocalQueue>& queues, const IOStreams& io);
// What `queue list` prints: a section per installed scheduler, a line for a missing one.
std::string queues_view(const jobs::QueueOverview& o, const IOStreams& io);
// POSITION NAMESPACE JOB WORKLOAD LOCALQUEUE LQ-POSITION PRIORITY, in queue order.
std::string pending_workloads_view(const std::vector<jobs::PendingWorkload>& w, const IOStreams& io);

// "cpu: 4, nvidia.com/gpu: 16" (keys sorted), "-" when empty.
std::string resource_list_text(const nlohmann::json& resources);
// get: "team-a (Kueue LocalQueue, ClusterQueue cq-a), Pending at position 0".
std::string job_queue_text(const jobs::JobQueue& q);

nlohmann::ordered_json queues_json(const jobs::QueueOverview& o);
nlohmann::ordered_json pending_workloads_json(const std::vector<jobs::PendingWorkload>& w);

}  // namespace trainctl::print
