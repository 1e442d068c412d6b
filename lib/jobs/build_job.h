// Turns a job object of any kind and the pods found for it into a TrainingJob.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "jobs/kind.h"
#include "jobs/training_job.h"

namespace trainctl::jobs {

using PodRefs = std::vector<const nlohmann::json*>;

// Whether `pod` is one of job `job_name`'s pods for this kind: same namespace, the kind's
// job-name label equal to the name, and the kind's extra selector terms matching.
bool pod_belongs_to(const JobKind& kind, const nlohmann::json& pod, const std::string& ns,
                    const std::string& job_name);

// Groups pods by (namespace, job name) for one kind; pods of other kinds are skipped.
std::map<std::pair<std::string, std::string>, PodRefs> group_pods(const JobKind& kind,
                                                                  const std::vector<nlohmann::json>& pods);

// The chief pod: the kind's chief label (master, launcher, completion index 0; for Volcano
// task index 0 of the first task), the newest that is not Pending winning over Pending
// ones; a job with a single pod has that pod as chief. Null when there is none.
const nlohmann::json* choose_chief(const JobKind& kind, const nlohmann::json& job, const PodRefs& pods);

// GPUs the job's replicas ask for according to its spec (used before pods exist).
long long spec_requested_gpus(const JobKind& kind, const nlohmann::json& job);

TrainingJob build_job(const JobKind& kind, const nlohmann::json& job, const PodRefs& pods, TimePoint now);

}  // namespace trainctl::jobs
