// Status and duration of a job, per kind, as Arena computes them (arena-notes §4):
//  PyTorchJob: true conditions, Succeeded > Failed > Running > Queuing, else PENDING
//    (a Restarting job has Running=False, so it shows PENDING until it runs again).
//  MPIJob: the same conditions, then the launcher: status.launcherStatus (v1alpha1)
//    Succeeded/Failed; a launcher pod that is not Pending means RUNNING; else PENDING.
//  Volcano Job: status.state.phase: Pending -> PENDING; Running, Restarting, Completing ->
//    RUNNING; Completed -> SUCCEEDED; Failed, Aborted, Aborting, Terminated, Terminating ->
//    FAILED; no phase yet -> PENDING; anything else -> UNKNOWN.
//  Operator-free PyTorch (Indexed batch/v1 Job): Complete or SuccessCriteriaMet -> SUCCEEDED;
//    Failed or FailureTarget -> FAILED; active pods -> RUNNING; else PENDING.
//  Then for every kind: RUNNING with any Pending pod shows PENDING.
#pragma once

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>

#include "jobs/job_pods.h"
#include "jobs/job_summary.h"
#include "jobs/kind.h"
#include "jobs/time.h"

namespace trainctl::jobs {

// The kind's own status from the job object alone, before the chief and Pending-pod rules.
std::string kind_status(const JobKind& kind, const nlohmann::json& job);

// The kind's status once the chief pod is known: an MPIJob that is PENDING or QUEUING by its
// conditions is RUNNING when its launcher pod has left Pending. `chief` may be null.
std::string kind_status(const JobKind& kind, const JobSummary& job, const ChiefPod* chief);

// The display rule on a kind_status: RUNNING with any pod in phase Pending -> PENDING.
std::string job_status(const std::string& kind_status, bool any_pod_pending);

// Duration (Arena's rules; `status` is the kind_status):
//  PyTorchJob: 0 without status.startTime; completionTime - startTime when set; FAILED:
//    the chief pod's latest condition transition - creation; else now - startTime.
//  MPIJob: completionTime - creation when set; FAILED: the Failed condition's
//    transition - creation; else now - creation.
//  Volcano: finished: status.state.lastTransitionTime - creation; else now - creation.
//  batch/v1 Job: 0 without startTime; completionTime - startTime; Failed: the Failed
//    condition's transition - startTime; else now - startTime.
// Never negative.
std::chrono::seconds job_duration(const JobKind& kind, const JobSummary& job, const std::string& status,
                                  const ChiefPod* chief, TimePoint now);

}  // namespace trainctl::jobs
