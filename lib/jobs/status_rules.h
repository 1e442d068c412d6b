// How a job's status and duration come from its object, one rule set per kind, each in its own
// file with the upstream code it follows:
//   PyTorchJob          status_pytorchjob.cpp    training-operator v1.9.0 conditions
//   MPIJob              status_mpijob.cpp        mpi-operator v0.8.0 conditions, launcher
//   Volcano Job         status_volcano_job.cpp   batch.volcano.sh/v1alpha1 status.state.phase
//   Indexed batch/v1 Job status_indexed_job.cpp  Job conditions, Kubernetes 1.31+ interim ones
// list, get, top job and submit --wait all go through object_status(); list, get and top then
// add what the pods say (status_with_pods()).
#pragma once

#include <chrono>
#include <nlohmann/json.hpp>
#include <optional>

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

// One kind's rules. A later JobKind strategy can hold its kind's rules as they are.
struct KindStatusRules {
  // The status the job object's own status fields give (conditions, phase).
  JobStatus (*status)(const nlohmann::json& job);
  StatusTimes (*times)(const nlohmann::json& job);
  // The status once the chief pod is known (`chief` may be null). Null: the chief changes nothing.
  JobStatus (*with_chief)(JobStatus status, const ChiefPod* chief);
  // How long the job ran by Arena's rule for the kind; `status` is object_status's.
  std::chrono::seconds (*duration)(const StatusTimes& times, JobStatus status, TimePoint created,
                                   const ChiefPod* chief, TimePoint now);
};

const KindStatusRules& pytorchjob_status_rules();
const KindStatusRules& mpijob_status_rules();
const KindStatusRules& volcano_job_status_rules();
const KindStatusRules& indexed_job_status_rules();
const KindStatusRules& status_rules(Trainer trainer);

// The status of the job object alone: its kind's rule, then TERMINATING for a job being
// deleted (metadata.deletionTimestamp) that has not finished, as kubectl's Job printer shows
// one (kubernetes pkg/printers/internalversion/printers.go printJob). submit --wait reads this.
JobStatus object_status(const JobKind& kind, const nlohmann::json& job);

// The status list, get and top show once the pods are known: the kind's chief rule, then
// RUNNING with any pod in phase Pending shows PENDING (Arena's GetJobRealStatus,
// pkg/training/get_advanced.go).
JobStatus status_with_pods(const JobKind& kind, JobStatus object_status, const ChiefPod* chief,
                           bool any_pod_pending);

// Never negative.
std::chrono::seconds job_duration(const JobKind& kind, const StatusTimes& times, JobStatus status,
                                  TimePoint created, const ChiefPod* chief, TimePoint now);

// Shared by the PyTorchJob and MPIJob rules: Arena's getStatus on kubeflow.org JobConditions
// (status_pytorchjob.cpp).
JobStatus kubeflow_conditions_status(const nlohmann::json& job);

// Shared by the kinds' rules: the lastTransitionTime of obj's status.conditions entry of that
// type when its status is "True".
std::optional<TimePoint> true_condition_since(const nlohmann::json& obj, const char* type);

}  // namespace trainctl::jobs
