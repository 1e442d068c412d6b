// Deleting one job found by name (find_jobs.h), for trainctl delete: the job in the foreground
// (propagationPolicy Foreground), so that its pods, services and TensorBoard (owned through
// ownerReferences) go with it; what trainctl created beside it (job_dependents.h), in case an
// operator released it; and Arena's record ConfigMap NAME-TYPE of a job Arena submitted.
#pragma once

#include <string>

#include "jobs/find_jobs.h"
#include "kube/client.h"

namespace trainctl::jobs {

enum class Deleted {
  Gone,         // the job object is removed
  Terminating,  // the API server keeps it (deletionTimestamp) until its pods have stopped
};

// Deletes the job of `match` (found) in `ns`. Throws NotFoundError with match.message's text
// of a missing name when the job went away before it could be deleted.
Deleted delete_job(kube::Client& client, const std::string& ns, const NameMatch& match);

}  // namespace trainctl::jobs
