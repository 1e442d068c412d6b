// A training job's status, one set for every kind: what list's and get's STATUS column, top
// job, `-o json` and `submit --wait` show. Which of a kind's conditions or phases gives which
// status is the kind's own rule (status_rules.h); this header is only the set and its names.
#pragma once

namespace trainctl::jobs {

enum class JobStatus { Pending, Queuing, Running, Succeeded, Failed, Terminating, Unknown, Suspended };

// PENDING, QUEUING, RUNNING, SUCCEEDED, FAILED, TERMINATING, UNKNOWN, SUSPENDED (Arena's
// names; TERMINATING is kubectl's, for a job being deleted; SUSPENDED, a job whose kind says it
// is suspended, trainctl suspend's: its pods are gone until it is resumed).
const char* status_name(JobStatus status);

// SUCCEEDED or FAILED: the job will not run again.
bool is_finished(JobStatus status);

}  // namespace trainctl::jobs
