// Reads what explains a pending job (pending_reason.h) in one parallel round after get has
// read the job: the namespace's Warning events (fieldSelector type=Warning, kept when they
// are about the job, its pods or its PodGroup), its PodGroups, the nodes and every pod that
// has not ended (for the nodes' free GPUs). 4 requests, sent together. A read that is
// refused (403: a user who may not list nodes or events) or not served (404: PodGroups
// without Volcano) is left out, and the explanation is made of what was read. The same round
// can also read where the job waits (queues.h QueueRead): its namespace's Kueue Workloads,
// beside the PodGroups it reads anyway.
#pragma once

#include "jobs/listed_jobs.h"
#include "jobs/diagnose/pending_reason.h"
#include "jobs/cluster/queues.h"
#include "jobs/training_job.h"
#include "kube/client.h"

namespace trainctl::jobs {

// PENDING or QUEUING, or some pod not scheduled yet or waiting for its image.
bool looks_pending(const TrainingJob& job);

// `pods`: the job's pods, as get read them. With `queue`, a PENDING or QUEUING job's queue
// is read in the same round (one more list, the Workloads) and set there; when the round
// fails, `queue` is left unread.
PendingReason read_pending_reason(kube::Client& client, const TrainingJob& job,
                                  std::vector<nlohmann::json> pods, QueueRead* queue = nullptr);

// list -o wide: the PENDING and QUEUING jobs whose pods say nothing (TrainingJob::reason "")
// get ExceededQuota or GangUnschedulable from the Warning events of `ns` ("" = all) about
// them or their PodGroup (event_pending_reason): one list, only when such a job is listed.
void add_event_reasons(kube::Client& client, const std::string& ns, ListedJobs& jobs);

}  // namespace trainctl::jobs
