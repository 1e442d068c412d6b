// How a job's status and duration come from its object, one rule set per kind (JobKind's
// status_rules), each in its kind's file (kinds/kinds.h lists them) with the upstream code it
// follows. Rules the kinds share (kubeflow.org conditions, condition times): kinds/shared_rules.h.
// list, get, top job and submit --wait all go through object_status(); list, get and top then
// add what the pods say (status_with_pods()).
#pragma once

#include <chrono>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "jobs/job_pods.h"
#include "jobs/job_status.h"
#include "jobs/kind.h"
#include "jobs/time.h"

namespace trainctl::jobs {

// The times on a job object its duration is computed from.
struct StatusTimes {
  std::optional<TimePoint> start;       // status.startTime
  std::optional<TimePoint> completion;  // status.completionTime
  // When the object says the job ended, for a kind and status whose end is not completionTime:
  // the Failed condition's transition (Indexed Job: else FailureTarget's); Volcano:
  // status.state.lastTransitionTime.
  std::optional<TimePoint> ended;
};

// Why the job object says it failed, as its kind writes it: the Failed condition (kubeflow.org,
// batch/v1), Volcano's failed phases. The summary's reason and the root cause both come from it.
struct ObjectFailure {
  std::string reason;   // one CamelCase word: the condition's or state's reason, else the phase
  std::string message;  // what the object says, else what the phase means
  std::string since;    // RFC 3339 as the server wrote it, "" when the object has no time
};

// One kind's rules; its JobKind points to them.
struct KindStatusRules {
  // The status the job object's own status fields give (conditions, phase).
  JobStatus (*status)(const nlohmann::json& job);
  StatusTimes (*times)(const nlohmann::json& job);
  // The status once the chief pod is known (`chief` may be null). Null: the chief changes nothing.
  JobStatus (*with_chief)(JobStatus status, const ChiefPod* chief);
  // How long the job ran by Arena's rule for the kind; `status` is object_status's.
  std::chrono::seconds (*duration)(const StatusTimes& times, JobStatus status, TimePoint created,
                                   const ChiefPod* chief, TimePoint now);
  // Why the object says it failed; nullopt when it does not. Set exactly when `status` gives
  // FAILED (tests/jobs/test_status_table.cpp holds every kind to that).
  std::optional<ObjectFailure> (*failure)(const nlohmann::json& job);
};

// The status of the job object alone: its kind's rule, then TERMINATING for a job being
// deleted (metadata.deletionTimestamp) that has not finished, as kubectl's Job printer shows
// one (kubernetes pkg/printers/internalversion/printers.go printJob). submit --wait reads this.
JobStatus object_status(const JobKind& kind, const nlohmann::json& job);

// The kind's failure rule on a job whose object status is FAILED; nullopt for any other job.
// get's and list's reason (job_summary.h) and the root cause (root_cause.h) read this.
std::optional<ObjectFailure> object_failure(const JobKind& kind, const nlohmann::json& job);

// The status list, get and top show once the pods are known: the kind's chief rule, then
// RUNNING with any pod in phase Pending shows PENDING (Arena's GetJobRealStatus,
// pkg/training/get_advanced.go).
JobStatus status_with_pods(const JobKind& kind, JobStatus object_status, const ChiefPod* chief,
                           bool any_pod_pending);

// Never negative.
std::chrono::seconds job_duration(const JobKind& kind, const StatusTimes& times, JobStatus status,
                                  TimePoint created, const ChiefPod* chief, TimePoint now);

}  // namespace trainctl::jobs
