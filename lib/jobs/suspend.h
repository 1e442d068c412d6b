// Suspending and resuming training jobs (trainctl suspend, trainctl resume). Each kind says
// how its jobs are suspended through JobKind::suspend, set in its file under kinds/:
//   PyTorchJob, TFJob, MPIJob  spec.runPolicy.suspend   training-operator v1.9.0
//       pkg/apis/kubeflow.org/v1/common_types.go RunPolicy.Suspend; mpi-operator v0.8.0
//       pkg/apis/kubeflow/v2beta1/types.go RunPolicy.Suspend
//   batch/v1 Job, TrainJob     spec.suspend             k8s.io/api batch/v1 JobSpec.Suspend;
//       kubeflow/trainer v2 pkg/apis/trainer/v1alpha1/trainjob_types.go TrainJobSpec.Suspend
//   Volcano Job                a bus.volcano.sh/v1alpha1 Command, action AbortJob or ResumeJob,
//       owned by and targeting the job, as vcctl job suspend/resume create it (volcano-sh/volcano
//       v1.15.1 pkg/cli/util/util.go CreateJobCommand; pkg/cli/job/suspend.go, resume.go)
// A kind without rules (suspend null) is refused.
//
// A job Kueue manages (label kueue.x-k8s.io/queue-name and a Workload) is refused too: Kueue's job
// reconciler (kubernetes-sigs/kueue v0.19.2 pkg/controller/jobframework/reconciler.go,
// ReconcileGenericJob steps 7 and 8) unsuspends a suspended job whose Workload is admitted
// ("Job admitted, unsuspending") and suspends a running one whose Workload is not ("Running
// job is not admitted by a cluster queue, suspending"): a change of the job's own suspend field
// is undone. Kueue's own way is the Workload's spec.active (kueuectl stop/resume workload,
// cmd/kueuectl/app/stop/stop_workload.go), which the refusal names.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "jobs/kind.h"
#include "kube/client.h"
#include "kube/resource.h"

namespace trainctl::jobs {

// What suspends or resumes one job: a JSON merge patch of the job object, or an object to
// create in the job's namespace (Volcano's Command).
struct SuspendChange {
  nlohmann::json merge_patch;  // null: none
  const kube::Resource* create_resource = nullptr;
  nlohmann::json create;
};

// One kind's way (JobKind::suspend).
struct SuspendRules {
  // What carries the request, for messages: "spec.runPolicy.suspend", "a bus.volcano.sh Command".
  const char* field;
  // Whether the job is suspended (or being suspended) now.
  bool (*suspended)(const nlohmann::json& job);
  // The change that suspends (true) or resumes (false) the job object `job`.
  SuspendChange (*change)(const nlohmann::json& job, bool suspend);
};

extern const SuspendRules kRunPolicySuspend;  // kubeflow.org jobs: spec.runPolicy.suspend
extern const SuspendRules kSpecSuspend;       // batch/v1 Job, TrainJob: spec.suspend
extern const SuspendRules kVolcanoCommand;    // Volcano Job: bus Command AbortJob / ResumeJob

// bus.volcano.sh/v1alpha1 commands (volcano.sh/apis pkg/apis/bus/v1alpha1/types.go Command).
const kube::Resource& volcano_commands();

// A job found by name among `kinds` in `ns`: its kind and object, as find_job (find_jobs.h)
// finds it, with its errors.
struct FoundJob {
  const JobKind* kind = nullptr;
  nlohmann::json object;
};
FoundJob find_job_object(kube::Client& client, const std::string& ns, const std::string& name,
                         const std::vector<const JobKind*>& kinds);

// The Kueue Workload of a job in a Kueue queue (the one labelled kueue.x-k8s.io/job-uid=UID,
// as jobframework labels it).
struct KueueWorkload {
  enum class State {
    None,     // no queue label, Kueue not served, or no Workload: Kueue does not manage the job
              // (its integration is off: no reconciler, jobframework/setup.go)
    Found,    // Kueue manages it
    Unknown,  // the Workloads could not be read (forbidden): taken as managed
  };
  State state = State::None;
  std::string name;
};
KueueWorkload kueue_workload_of(kube::Client& client, const std::string& ns, const nlohmann::json& job);

// What suspend/resume will do with a job.
struct SuspendPlan {
  enum class Action { Change, AlreadyDone };
  Action action = Action::Change;
  SuspendChange change;
};

// Decides for the job `found`: AlreadyDone when it already is as asked; the change otherwise.
// Throws UsageError (one line) when it cannot be done: its kind has no suspend, the job has
// finished, or Kueue manages it (`workload` Found or Unknown).
SuspendPlan plan_suspend(const FoundJob& found, bool suspend, const KueueWorkload& workload = {});

// The Kueue queue a job is in (metadata.labels kueue.x-k8s.io/queue-name), "" when none.
std::string kueue_queue_of(const nlohmann::json& job);

// Sends the change: the merge patch, or the create. A field the served schema lacks (an older
// CRD) is refused by the server (fieldValidation=Strict); that is a UsageError naming it.
void apply_suspend(kube::Client& client, const FoundJob& found, const std::string& ns,
                   const SuspendChange& change);

}  // namespace trainctl::jobs
