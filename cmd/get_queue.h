// The queue part of `get NAME`: where a job that has not started waits (Kueue LocalQueue
// and its position in the ClusterQueue, or Volcano Queue and PodGroup phase).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>

#include "cmd/factory.h"
#include "jobs/cluster/queues.h"
#include "jobs/training_job.h"

namespace trainctl {

struct GetQueue {
  // The queue of a PENDING or QUEUING job (nothing for the others): from `read`, what the
  // round that explained the job read of it, else read now.
  GetQueue(Factory& f, const jobs::TrainingJob& job, const jobs::QueueRead& read);
  // "Queue: NAME (...)" under the job's details; nothing when it waits in no queue.
  void print(std::ostream& out) const;
  // `queue`: {name, kind, position, clusterQueue, phase}, null when it waits in no queue.
  void add_to(nlohmann::ordered_json& doc) const;

  std::optional<jobs::JobQueue> queue;
};

}  // namespace trainctl
