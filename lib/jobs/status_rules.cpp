#include "jobs/status_rules.h"

#include "jobs/json_util.h"

namespace trainctl::jobs {

using nlohmann::json;

JobStatus object_status(const JobKind& kind, const json& job) {
  const JobStatus s = kind.status_rules->status(job);
  const bool deleting = at(at(job, "metadata"), "deletionTimestamp").is_string();
  return deleting && !is_finished(s) ? JobStatus::Terminating : s;
}

std::optional<ObjectFailure> object_failure(const JobKind& kind, const json& job) {
  if (kind.status_rules->status(job) != JobStatus::Failed) return std::nullopt;
  return kind.status_rules->failure(job);
}

JobStatus status_with_pods(const JobKind& kind, JobStatus status, const ChiefPod* chief,
                           bool any_pod_pending) {
  if (const auto with_chief = kind.status_rules->with_chief) status = with_chief(status, chief);
  return status == JobStatus::Running && any_pod_pending ? JobStatus::Pending : status;
}

std::chrono::seconds job_duration(const JobKind& kind, const StatusTimes& times, JobStatus status,
                                  TimePoint created, const ChiefPod* chief, TimePoint now) {
  const auto d = kind.status_rules->duration(times, status, created, chief, now);
  return d.count() < 0 ? std::chrono::seconds(0) : d;
}

}  // namespace trainctl::jobs
