// Volcano's Job controller (batch.volcano.sh/v1alpha1) as volcano-sh/volcano v1.15.1 runs it
// (pkg/controllers/job): pods NAME-TASK-I with their task template's labels plus Volcano's
// labels and annotations (job_controller_util.go createJobPod), a PodGroup NAME-<uid> whose
// phase the simulated volcano-scheduler moves Pending -> Inqueue -> Running -> Completed
// (pkg/scheduler/framework/session.go getPodGroupPhase), pods created only once that PodGroup
// is out of Pending (job_controller_actions.go syncJob), and the job state machine of
// pkg/controllers/job/state/*.go: Pending, Running, Restarting, Completing, Aborting,
// Terminating, Completed, Failed, Aborted, Terminated. Policies (job and task level, task
// first: job_controller_util.go applyPolicies) map the events PodFailed, TaskCompleted, "*"
// and exit codes to the actions RestartJob, RestartTask, RestartPod, AbortJob, TerminateJob,
// CompleteJob. Plugins env (VK_TASK_INDEX, VC_TASK_INDEX) and svc (hostname/subdomain, the
// headless Service NAME, the ConfigMap NAME-svc with the task hosts).
#pragma once

#include <functional>

#include "kubesim/controllers/controller.h"

namespace kubesim {

struct PolicyAction;  // volcano_policy.h

class VolcanoJobController : public Controller {
 public:
  explicit VolcanoJobController(Context& ctx) : Controller(ctx, ctx.vcjobs) {}
  void reconcile(const std::string& ns, const std::string& name) override;

  // A state's change to the status, applied after the action (state.UpdateStatusFn).
  using UpdateStatus = std::function<void(json&)>;

  // The admission webhook's defaults (pkg/webhooks/admission/jobs/mutate/mutate_job.go):
  // queue "default", schedulerName "volcano", maxRetry 3, task names default<i>, task
  // minAvailable = replicas, job minAvailable = sum of the tasks' minAvailable. kubesim has no
  // admission webhook: they are applied on a copy at every reconcile.
  static json defaults(const json& job);
  static std::string pod_group_name(const json& job);
  // createJobPod + the env/svc plugins' OnPodCreate, for a defaulted job.
  static json make_pod(const json& job, const json& task, int index);
  static json make_pod_group(const json& job);
  // The svc plugin's ConfigMap NAME-svc (GenerateHosts) and headless Service NAME.
  static json make_svc_config_map(const json& job);
  static json make_service(const json& job);

 private:
  // killPods: deletes the job's pods (those of task/pod target only, when given) except the
  // phases kept (soft = Succeeded and Failed), deletes the PodGroup, and returns how many
  // pods it deleted.
  int64_t kill_pods(const json& job, const std::vector<std::shared_ptr<const json>>& pods, bool soft,
                    const std::string& task, const std::string& pod);

  // One reconcile of a job (apis.JobInfo): the defaulted job, its pods, the status as read and
  // the status being built.
  struct Run {
    std::string ns, name, now;
    json job;
    json old_status;
    json status;
    std::vector<std::shared_ptr<const json>> pods;
    std::string pg_name;
    std::string phase;
  };
  // The steps of a reconcile, named after volcano's: the state machine (volcano_job.cpp) and
  // the actions of job_controller_actions.go (volcano_job_actions.cpp).
  void finished(Run& r);
  void initiate_job(Run& r);
  bool execute(Run& r, const PolicyAction& act);
  bool kill(Run& r, bool soft, const std::string& task, const std::string& pod, const UpdateStatus& update);
  void sync_job(Run& r, const UpdateStatus& update);
  void write_status(const Run& r, json st);
};

// bus.volcano.sh/v1alpha1 Command, as v1.15.1's job controller takes it
// (job_controller_handler.go processNextCommand): a Command whose target is a Job is deleted
// (executed at most once), the event CommandIssued is recorded on the job, and its action
// (vcctl job suspend: AbortJob, resume: ResumeJob) is run by the job's state machine in place
// of its policies (job_controller_util.go applyPolicies: a request's action wins).
class VolcanoCommandController : public Controller {
 public:
  explicit VolcanoCommandController(Context& ctx) : Controller(ctx, ctx.commands) {}
  void reconcile(const std::string& ns, const std::string& name) override;
};

// scheduling.volcano.sh/v1beta1 Queue: the queue controller of v1.15.1
// (pkg/controllers/queue/queue_controller_action.go) opens a new queue (status.state Open).
// It writes no pending/running/inqueue counts: v1.15.1 only exports them as metrics.
class VolcanoQueueController : public Controller {
 public:
  explicit VolcanoQueueController(Context& ctx) : Controller(ctx, ctx.queues) {}
  void reconcile(const std::string& ns, const std::string& name) override;
};

}  // namespace kubesim
