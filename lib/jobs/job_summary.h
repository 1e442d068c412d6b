// A job object reduced, as soon as it is read, to what list/get/top need: identity, the
// status the object gives (before the pods are known), the times its duration comes from,
// and the GPUs and priority its spec asks for.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "jobs/job_status.h"
#include "jobs/kind.h"
#include "jobs/status_rules.h"
#include "jobs/time.h"

namespace trainctl::jobs {

struct JobSummary {
  std::string name;
  std::string namespace_;
  std::string uid;
  std::optional<TimePoint> created;
  bool selected = true;                   // the labels match the kind's list_selector
  JobStatus status = JobStatus::Pending;  // object_status (status_rules.h)
  StatusTimes times;                      // read by the kind's status rules
  long long spec_gpus = 0;                // spec_requested_gpus
  std::string spec_priority;  // runPolicy.schedulingPolicy.priorityClass, else spec.priorityClassName
  std::string chief_task;     // the kind's chief_task: Volcano's first task; "" for the others
  std::optional<WorkerRange> elastic;  // the kind's elastic_workers: set for an elastic job
  // The reason of the kind's failure rule (object_failure, status_rules.h): the Failed
  // condition's (kubeflow, batch/v1), Volcano's state reason or failed phase.
  std::string failed_reason;
  std::optional<TrainingProgress> progress;  // the kind's progress rule
};

// GPUs the job's replicas ask for according to its spec (used before pods exist): the kind's
// spec_gpus.
long long spec_requested_gpus(const JobKind& kind, const nlohmann::json& job);

JobSummary summarize_job(const JobKind& kind, const nlohmann::json& job);

}  // namespace trainctl::jobs
