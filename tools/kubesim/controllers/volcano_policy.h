// Volcano v1.15.1's policies and the part of volcano-scheduler kubesim plays for a Volcano
// Job: which action an event asks for (pkg/controllers/job/job_controller_util.go
// applyPolicies), the PodGroup phase (pkg/scheduler/framework/session.go getPodGroupPhase,
// the enqueue action) and the queues the scheduler creates at start
// (pkg/scheduler/cache/cache.go newDefaultAndRootQueue).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "kubesim/controllers/context.h"

namespace kubesim {

struct PolicyAction {
  std::string action = "SyncJob";  // bus/v1alpha1 actions.go
  std::string task;                // the task of the event (RestartTask, RestartPod)
  std::string pod;                 // the pod of the event (RestartPod)
};

// The policy action for one event of a task: the task's policies first (event, "*" or exit
// code), then the job's; SyncJob when none matches. exit_code < 0: no exit code.
std::string policy_action(const json& job, const std::string& task, const std::string& event, int exit_code);

// The first action the job's pods ask for (defaulted job with its current status): a Failed
// pod of the current version is a PodFailed event (with its first container's exit code), a
// task whose replicas all Succeeded (one of them of the current version) a TaskCompleted event.
PolicyAction volcano_action(const json& job, const std::vector<std::shared_ptr<const json>>& pods);

// volcano-scheduler's view of the job's PodGroup: Pending -> Inqueue (enqueue, when its queue
// is not Closed), Running once minMember pods are scheduled, Completed when every scheduled
// pod has finished; status.running/succeeded/failed. A PodGroup created in this reconcile
// (existed = false) is left for the next one, as the scheduler runs apart from the controller.
// Returns the phase ("" when there is none).
std::string update_pod_group(Context& ctx, const json& job, const std::vector<std::shared_ptr<const json>>& pods,
                             bool existed);

// Creates the queues "root" (reclaimable false) and "default" (reclaimable true), weight 1,
// when Queues are served and they are missing.
void ensure_default_queues(Context& ctx);

}  // namespace kubesim
