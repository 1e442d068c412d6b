// A job object reduced, as soon as it is read, to what list/get/top need: identity, the
// kind's own status (before the chief pod is known), the times its duration comes from,
// and the GPUs and priority its spec asks for.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "jobs/kind.h"
#include "jobs/time.h"

namespace trainctl::jobs {

struct JobSummary {
  std::string name;
  std::string namespace_;
  std::string uid;
  std::optional<TimePoint> created;
  bool selected = true;            // the labels match the kind's list_selector
  bool deleting = false;           // metadata.deletionTimestamp is set: the job is being deleted
  std::string own_status;          // kind_status without a chief pod
  long long spec_gpus = 0;         // spec_requested_gpus
  std::string spec_priority;       // runPolicy.schedulingPolicy.priorityClass, else spec.priorityClassName
  std::string first_task;          // Volcano: spec.tasks[0].name
  std::optional<TimePoint> start;  // status.startTime
  std::optional<TimePoint> completion;         // status.completionTime
  std::optional<TimePoint> failed_at;          // the true Failed condition's lastTransitionTime
  std::optional<TimePoint> failure_target_at;  // the true FailureTarget condition's (batch/v1)
  std::optional<TimePoint> state_transition;  // Volcano: status.state.lastTransitionTime
};

// GPUs the job's replicas ask for according to its spec (used before pods exist).
long long spec_requested_gpus(const JobKind& kind, const nlohmann::json& job);

JobSummary summarize_job(const JobKind& kind, const nlohmann::json& job);

}  // namespace trainctl::jobs
