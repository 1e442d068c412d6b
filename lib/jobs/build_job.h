// Turns a job of any kind and the pods found for it into a TrainingJob. The work is done
// on summaries (job_summary.h, pod_summary.h), which is how list reads whole clusters; the
// JSON overload summarises first.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "jobs/job_pods.h"
#include "jobs/job_summary.h"
#include "jobs/kind.h"
#include "jobs/pod_summary.h"
#include "jobs/training_job.h"

namespace trainctl::jobs {

using PodRefs = std::vector<const nlohmann::json*>;

// The job-name label of the pod for this kind, "" when the pod is not of this kind (no such
// label, or the kind's extra selector terms do not match).
std::string pod_job_of_kind(const JobKind& kind, const PodSummary& pod);

// Whether `pod` is one of job `job_name`'s pods for this kind: same namespace, the kind's
// job-name label equal to the name, and the kind's extra selector terms matching.
bool pod_belongs_to(const JobKind& kind, const PodSummary& pod, const std::string& ns,
                    const std::string& job_name);

// The chief pod: the kind's chief label (master, launcher, completion index 0; for Volcano
// task index 0 of the first task, the job's chief_task), else the first of its
// chief_fallbacks that some pod matches (TFJob: master, then worker index 0); among those,
// the newest that is not Pending winning over Pending ones; a job with a single pod has that
// pod as chief. Null when there is none. Points into `pods`.
const ChiefPod* choose_chief(const JobSummary& job, const JobPods& pods);
// Whether `pod` wins over `best`, a candidate seen before it: a lower rank, else not Pending
// over Pending, else newer. A pod that ties keeps the earlier one.
bool beats_as_chief(const ChiefPod& pod, const ChiefPod& best);

// Consumes the pods: their Instance rows (when kept) move into the job.
TrainingJob build_job(const JobKind& kind, const JobSummary& job, JobPods pods, TimePoint now);
TrainingJob build_job(const JobKind& kind, const nlohmann::json& job, const PodRefs& pods, TimePoint now);

}  // namespace trainctl::jobs
