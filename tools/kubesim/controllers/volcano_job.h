// Volcano's Job controller (batch.volcano.sh/v1alpha1): pods NAME-TASK-I labelled and
// annotated like Volcano (volcano.sh/job-name, job-namespace, queue-name, task-spec,
// task-index; scheduling.k8s.io/group-name), a PodGroup NAME-<uid> (scheduling.volcano.sh/
// v1beta1) with minMember = spec.minAvailable, and status.state.phase Pending -> Running ->
// Completed/Failed (Restarting, Aborted, Terminated through policies). Policies (job or task
// level): events PodFailed, PodEvicted, TaskCompleted, Any; actions RestartJob (up to
// maxRetry, default 3), AbortJob, TerminateJob, CompleteJob. Plugins env (VK_TASK_INDEX,
// VC_TASK_INDEX) and svc (hostname/subdomain and a headless Service NAME).
#pragma once

#include "kubesim/controllers/controller.h"

namespace kubesim {

class VolcanoJobController : public Controller {
 public:
  explicit VolcanoJobController(Context& ctx) : Controller(ctx) {}
  const ResourceType* primary() const override { return m_ctx.vcjobs; }
  void reconcile(const std::string& ns, const std::string& name) override;

  static std::string pod_group_name(const json& job);
  static json make_pod(const json& job, const json& task, int index);
};

}  // namespace kubesim
