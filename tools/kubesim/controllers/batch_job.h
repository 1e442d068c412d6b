// The batch/v1 Job controller: pods NAME-XXXXX (NonIndexed) or NAME-INDEX-XXXXX (Indexed,
// with label and annotation batch.kubernetes.io/job-completion-index, env
// JOB_COMPLETION_INDEX and hostname NAME-INDEX), labels batch.kubernetes.io/job-name,
// job-name, batch.kubernetes.io/controller-uid, controller-uid; completions, parallelism,
// backoffLimit, activeDeadlineSeconds, ttlSecondsAfterFinished; status active/ready/
// succeeded/failed, completedIndexes, startTime, completionTime, conditions Complete/Failed;
// spec.suspend (condition Suspended).
#pragma once

#include "kubesim/controllers/controller.h"
#include "kubesim/controllers/run_policy.h"

namespace kubesim {

class BatchJobController : public Controller {
 public:
  explicit BatchJobController(Context& ctx) : Controller(ctx, ctx.jobs) {}
  void reconcile(const std::string& ns, const std::string& name) override;

 private:
  void create_pod(const json& job, int index);  // index < 0: NonIndexed
  // spec.suspend: deletes active pods and writes the Suspended status; true when suspended.
  bool hold_suspended(const json& job, const ObjectList& pods, json& status);
  void finish(const json& job, json status, const std::string& type, const std::string& reason,
              const std::string& message);
};

// "0-2,4" as the Job controller writes status.completedIndexes.
std::string format_indexes(const std::vector<int>& sorted);

}  // namespace kubesim
