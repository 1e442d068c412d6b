// Volcano Job (batch.volcano.sh/v1alpha1) status and duration, from status.state.phase.
//
// The phases (volcano-sh/volcano staging/src/volcano.sh/apis/pkg/apis/batch/v1alpha1/job.go)
// and where the job controller goes from each (pkg/controllers/job/state/*.go, v1.10.0):
//   Pending                            -> PENDING (also no phase yet)
//   Running                            -> RUNNING
//   Completing: required tasks done, the rest being killed; next Completed -> RUNNING
//   Completed                          -> SUCCEEDED
//   Restarting: all pods killed to be made again; next Pending, or Failed once retryCount
//     reaches maxRetry (restarting.go) -> PENDING, as a restarting PyTorchJob is
//   Failed (retries exhausted)         -> FAILED
//   Aborting: aborted, waiting for its pods to go; next Aborted (aborting.go) -> FAILED
//   Aborted                            -> FAILED
//   Terminating: terminated, waiting for its pods to go; next Terminated (terminating.go)
//                                      -> FAILED
//   Terminated                         -> FAILED
//   anything else                      -> UNKNOWN
// Terminated, Completed and Failed are the controller's finished states (state/factory.go);
// an Aborting or Terminating job runs no more and ends Aborted or Terminated, so it has
// failed already. (Arena, pkg/training/trainer_volcano.go, prints the phases other than
// Pending, Running, Completed and Failed as they are.)
//
// Duration: finished (SUCCEEDED or FAILED): status.state.lastTransitionTime - creation;
// otherwise now - creation.
#include "jobs/json_util.h"
#include "jobs/status_rules.h"

namespace trainctl::jobs {

using nlohmann::json;

namespace {

JobStatus volcano_job_status(const json& job) {
  const std::string phase = str(at_path(job, {"status", "state"}), "phase");
  if (phase.empty() || phase == "Pending" || phase == "Restarting") return JobStatus::Pending;
  if (phase == "Running" || phase == "Completing") return JobStatus::Running;
  if (phase == "Completed") return JobStatus::Succeeded;
  if (phase == "Failed" || phase == "Aborting" || phase == "Aborted" || phase == "Terminating" ||
      phase == "Terminated")
    return JobStatus::Failed;
  return JobStatus::Unknown;
}

StatusTimes volcano_job_times(const json& job) {
  return {std::nullopt, std::nullopt,
          parse_time(str(at_path(job, {"status", "state"}), "lastTransitionTime"))};
}

std::chrono::seconds volcano_job_duration(const StatusTimes& t, JobStatus status, TimePoint created,
                                          const ChiefPod*, TimePoint now) {
  return seconds_between(created, is_finished(status) ? t.ended.value_or(now) : now);
}

}  // namespace

const KindStatusRules& volcano_job_status_rules() {
  static const KindStatusRules rules{volcano_job_status, volcano_job_times, nullptr, volcano_job_duration};
  return rules;
}

}  // namespace trainctl::jobs
