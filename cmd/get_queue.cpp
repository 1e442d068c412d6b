#include "cmd/get_queue.h"

#include "core/errors.h"
#include "core/log.h"
#include "print/queue_views.h"

namespace trainctl {

GetQueue::GetQueue(Factory& f, const jobs::TrainingJob& job, const jobs::QueueRead& read) {
  if (job.status != jobs::JobStatus::Pending && job.status != jobs::JobStatus::Queuing) return;
  try {
    if (!read.read) {
      queue = jobs::read_job_queue(f.client(), job);
      return;
    }
    if (!read.error.empty()) throw Error(read.error);
    queue = read.queue;
    if (queue) jobs::read_queue_position(f.client(), job, *queue);
  } catch (const Error& e) {
    // An extra: a cluster that forbids reading Workloads or PodGroups still shows the job.
    log::warn("the queue of {} is not known: {}", job.name, e.what());
  }
}

void GetQueue::print(std::ostream& out) const {
  if (queue) out << "Queue: " << print::job_queue_text(*queue) << "\n";
}

void GetQueue::add_to(nlohmann::ordered_json& doc) const {
  doc["queue"] = queue ? queue->to_json() : nlohmann::ordered_json();
}

}  // namespace trainctl
