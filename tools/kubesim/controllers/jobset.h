// The JobSet v0.12.0 controller (kubernetes-sigs/jobset pkg/controllers/jobset_controller.go
// reconcile, depends_on.go, startup_policy.go, success_policy.go, failure_policy.go,
// ttl_after_finished.go). One reconcile, as upstream:
//  1. the JobSet's Jobs (controller-owned), bucketed: previous restart attempt (label
//     jobset.sigs.k8s.io/restart-attempt < status.restarts), active, failed (condition Failed),
//     successful (Complete);
//  2. status.replicatedJobsStatus {name, ready, succeeded, failed, active, suspended} per
//     replicated job, stored sorted by name descending (replicatedJobStatusesEqual sorts it);
//  3. a finished JobSet deletes its active Jobs (foreground) and, after
//     ttlSecondsAfterFinished, itself; otherwise the Jobs of previous attempts are deleted;
//  4. a failed Job runs the failure policy: none -> Failed/FailedJobs "jobset failed due to one
//     or more job failures (first failed job: NAME)"; rules (reason, message pattern, target)
//     -> FailJobSet, RestartJobSet (restarts + 1, RestartingJobSet True, until maxRestarts:
//     Failed/ReachedMaxRestarts), RestartJobSetAndIgnoreMaxRestarts;
//  5. successful Jobs run the success policy (All or Any of the target replicated jobs'
//     replicas): Completed/AllJobsCompleted "jobset completed successfully", terminalState;
//  6. the headless Service (name = network.subdomain or the JobSet's, selector
//     jobset.sigs.k8s.io/jobset-name, publishNotReadyAddresses) when enableDNSHostnames;
//  7. missing Jobs `<jobset>-<rjob>-<index>` created once their dependsOn are Ready or
//     Complete (InOrder startup: one replicated job at a time), labelled and annotated
//     (jobset-name, jobset-uid, replicatedjob-name, restart-attempt, replicatedjob-replicas,
//     global-replicas, job-index, job-key, job-global-index, group-name, group-replicas,
//     job-group-index) on the Job and its pod template, pods with the subdomain;
//  8. suspend: active Jobs suspended, Suspended/True/SuspendedJobs "jobset is suspended";
//     resume: startTime cleared, the pod template's labels, annotations, nodeSelector,
//     tolerations, schedulingGates merged in, Jobs unsuspended, Suspended/False/ResumeJobs
//     "jobset is resumed".
// Conditions change as setCondition does (a new type only when True; events for each change).
#pragma once

#include "kubesim/controllers/controller.h"
#include "kubesim/controllers/trainer_model.h"

namespace kubesim {

class JobSetController : public Controller {
 public:
  explicit JobSetController(Context& ctx) : Controller(ctx, TrainerTypes::find(ctx.store).jobsets), m_t(TrainerTypes::find(ctx.store)) {}
  void reconcile(const std::string& ns, const std::string& name) override;

 private:
  TrainerTypes m_t;
};

// The Job of replicated job `rjob` (an element of spec.replicatedJobs) at index job_index
// (jobset_controller.go constructJob with labelAndAnnotateObject), without its owner.
json jobset_construct_job(const json& jobset, const json& rjob, int64_t job_index);

// The name of a JobSet's headless Service and its pods' subdomain (GetSubdomain).
std::string jobset_subdomain(const json& jobset);

}  // namespace kubesim
