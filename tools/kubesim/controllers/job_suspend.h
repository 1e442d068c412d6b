// Suspended jobs, as the controllers hold them while Kueue's Workload waits for quota: the
// training-operator's runPolicy.suspend (pkg/controller.v1/common/job.go ReconcileJobs,
// v1.9.0), mpi-operator's runPolicy.suspend (pkg/controller/mpi_job_controller.go, v0.8.0)
// and the batch Job's spec.suspend (pkg/controller/job/job_controller.go).
#pragma once

#include <string>

#include "kubesim/controllers/run_policy.h"

namespace kubesim {

// spec.runPolicy.suspend of a kubeflow job is true.
bool run_policy_suspended(const json& job);

// Sets the condition `type` to False with that reason (commonutil.UpdateJobConditions with
// ConditionFalse); false when there is no such condition or it already says so.
bool set_condition_false(json& status, const std::string& type, const std::string& reason,
                         const std::string& message, const std::string& now);

// A suspended training-operator job (common/job.go ReconcileJobs, v1.9.0): its pods are
// deleted, every replica's active is 0, Running turns False and Suspended True (`<Kind> <name>
// is suspended.`, reason <Kind>Suspended); startTime stays. A job that was suspended and is
// not any more gets Suspended False (reason <Kind>Resumed) and a new startTime.
// Returns true when the job is suspended (the caller stops there).
bool hold_suspended_kubeflow(Context& ctx, const ResourceType& rt, const json& job, const ObjectList& pods,
                             json& status);

}  // namespace kubesim
