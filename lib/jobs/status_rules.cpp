#include "jobs/status_rules.h"

#include "jobs/json_util.h"

namespace trainctl::jobs {

using nlohmann::json;

const KindStatusRules& status_rules(Trainer trainer) {
  switch (trainer) {
    case Trainer::PyTorch:
      return pytorchjob_status_rules();
    case Trainer::MPI:
      return mpijob_status_rules();
    case Trainer::Volcano:
      return volcano_job_status_rules();
    case Trainer::PyTorchNoOperator:
      break;
  }
  return indexed_job_status_rules();
}

JobStatus object_status(const JobKind& kind, const json& job) {
  const JobStatus s = status_rules(kind.trainer).status(job);
  const bool deleting = at(at(job, "metadata"), "deletionTimestamp").is_string();
  return deleting && !is_finished(s) ? JobStatus::Terminating : s;
}

JobStatus status_with_pods(const JobKind& kind, JobStatus status, const ChiefPod* chief,
                           bool any_pod_pending) {
  if (const auto with_chief = status_rules(kind.trainer).with_chief) status = with_chief(status, chief);
  return status == JobStatus::Running && any_pod_pending ? JobStatus::Pending : status;
}

std::chrono::seconds job_duration(const JobKind& kind, const StatusTimes& times, JobStatus status,
                                  TimePoint created, const ChiefPod* chief, TimePoint now) {
  const auto d = status_rules(kind.trainer).duration(times, status, created, chief, now);
  return d.count() < 0 ? std::chrono::seconds(0) : d;
}

std::optional<TimePoint> true_condition_since(const json& obj, const char* type) {
  const json& c = condition(obj, type);
  if (str(c, "status") != "True") return std::nullopt;
  return parse_time(str(c, "lastTransitionTime"));
}

}  // namespace trainctl::jobs
