#include "jobs/kinds/shared_rules.h"

#include "jobs/gpu.h"
#include "jobs/json_util.h"

namespace trainctl::jobs {

using nlohmann::json;

ReplicaPlace kubeflow_replica(const json& pod, const std::string&) {
  return {replica_label(pod, "training.kubeflow.org/replica-type"),
          replica_number(replica_label(pod, "training.kubeflow.org/replica-index"))};
}

JobStatus kubeflow_conditions_status(const json& job) {
  if (condition_true(job, "Succeeded")) return JobStatus::Succeeded;
  if (condition_true(job, "Failed")) return JobStatus::Failed;
  if (condition_true(job, "Suspended")) return suspended_status(job);
  if (condition_true(job, "Running")) return JobStatus::Running;
  if (condition_true(job, "Queuing")) return JobStatus::Queuing;
  return JobStatus::Pending;
}

JobStatus suspended_status(const json& job) {
  return label(job, "kueue.x-k8s.io/queue-name").empty() ? JobStatus::Suspended : JobStatus::Pending;
}

std::optional<TimePoint> true_condition_since(const json& obj, const char* type) {
  const json& c = condition(obj, type);
  if (str(c, "status") != "True") return std::nullopt;
  return parse_time(str(c, "lastTransitionTime"));
}

StatusTimes kubeflow_times(const json& job) {
  const json& status = at(job, "status");
  return {parse_time(str(status, "startTime")), parse_time(str(status, "completionTime")),
          true_condition_since(job, "Failed")};
}

std::optional<ObjectFailure> condition_failure(const json& job, const char* type) {
  const json& c = condition(job, type);
  if (str(c, "status") != "True") return std::nullopt;
  const std::string reason = str(c, "reason");
  return ObjectFailure{reason.empty() ? type : reason, str(c, "message"), str(c, "lastTransitionTime")};
}

std::optional<ObjectFailure> kubeflow_failure(const json& job) {
  if (condition_true(job, "Succeeded")) return std::nullopt;  // Arena's getStatus: Succeeded first
  return condition_failure(job, "Failed");
}

long long replica_gpus(const json& replica) {
  const auto& r = at(replica, "replicas");
  return (r.is_number() ? r.get<long long>() : 1) * spec_gpus(at_path(replica, {"template", "spec"}));
}

long long replica_map_gpus(const json& specs) {
  long long total = 0;
  if (!specs.is_object()) return 0;
  for (const auto& [role, spec] : specs.items()) total += replica_gpus(spec);
  return total;
}

std::string no_chief_task(const json&) { return ""; }

}  // namespace trainctl::jobs
