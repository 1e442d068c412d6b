#include "jobs/job_status.h"

#include "jobs/json_util.h"

namespace trainctl::jobs {

namespace {

using nlohmann::json;

std::string training_operator_status(const json& job) {
  if (condition_true(job, "Succeeded")) return "SUCCEEDED";
  if (condition_true(job, "Failed")) return "FAILED";
  if (condition_true(job, "Running")) return "RUNNING";
  if (condition_true(job, "Queuing")) return "QUEUING";
  return "PENDING";
}

std::string mpi_status(const json& job) {
  std::string s = training_operator_status(job);
  if (s == "SUCCEEDED" || s == "FAILED") return s;
  const std::string launcher = str(at(job, "status"), "launcherStatus");
  if (launcher == "Succeeded") return "SUCCEEDED";
  if (launcher == "Failed") return "FAILED";
  if (s == "RUNNING") return s;
  return s == "QUEUING" ? s : "PENDING";
}

std::string volcano_status(const json& job) {
  const std::string phase = str(at_path(job, {"status", "state"}), "phase");
  if (phase.empty() || phase == "Pending") return "PENDING";
  if (phase == "Running" || phase == "Restarting" || phase == "Completing") return "RUNNING";
  if (phase == "Completed") return "SUCCEEDED";
  if (phase == "Failed" || phase == "Aborted" || phase == "Aborting" || phase == "Terminated" ||
      phase == "Terminating")
    return "FAILED";
  return "UNKNOWN";
}

std::string batch_status(const json& job) {
  if (condition_true(job, "Complete") || condition_true(job, "SuccessCriteriaMet")) return "SUCCEEDED";
  if (condition_true(job, "Failed") || condition_true(job, "FailureTarget")) return "FAILED";
  const auto& active = at(at(job, "status"), "active");
  if (active.is_number() && active.get<long long>() > 0) return "RUNNING";
  return "PENDING";
}

}  // namespace

std::string kind_status(const JobKind& kind, const json& job) {
  switch (kind.trainer) {
    case Trainer::PyTorch:
      return training_operator_status(job);
    case Trainer::MPI:
      return mpi_status(job);
    case Trainer::Volcano:
      return volcano_status(job);
    case Trainer::PyTorchNoOperator:
      return batch_status(job);
  }
  return "UNKNOWN";
}

std::string kind_status(const JobKind& kind, const JobSummary& job, const ChiefPod* chief) {
  const std::string& s = job.own_status;
  if (kind.trainer == Trainer::MPI && (s == "PENDING" || s == "QUEUING") && chief && chief->left_pending)
    return "RUNNING";
  return s;
}

std::string job_status(const std::string& kind_status, bool any_pod_pending) {
  return kind_status == "RUNNING" && any_pod_pending ? "PENDING" : kind_status;
}

std::chrono::seconds job_duration(const JobKind& kind, const JobSummary& job, const std::string& status,
                                  const ChiefPod* chief, TimePoint now) {
  const auto created = job.created.value_or(now);
  const auto& start = job.start;
  const auto& completion = job.completion;
  std::chrono::seconds d{0};
  switch (kind.trainer) {
    case Trainer::PyTorch:
      if (!start) break;
      if (completion) {
        d = seconds_between(*start, *completion);
      } else if (status == "FAILED") {
        auto t = chief ? chief->latest_transition : std::nullopt;
        if (!t) t = job.failed_at;
        d = seconds_between(created, t.value_or(now));
      } else {
        d = seconds_between(*start, now);
      }
      break;
    case Trainer::MPI:
      if (completion) {
        d = seconds_between(created, *completion);
      } else if (status == "FAILED") {
        d = seconds_between(created, job.failed_at.value_or(now));
      } else {
        d = seconds_between(created, now);
      }
      break;
    case Trainer::Volcano:
      if (status == "SUCCEEDED" || status == "FAILED") {
        d = seconds_between(created, job.state_transition.value_or(now));
      } else {
        d = seconds_between(created, now);
      }
      break;
    case Trainer::PyTorchNoOperator:
      if (!start) break;
      if (completion) {
        d = seconds_between(*start, *completion);
      } else if (status == "FAILED") {
        auto t = job.failed_at;
        if (!t) t = job.failure_target_at;
        d = seconds_between(*start, t.value_or(now));
      } else {
        d = seconds_between(*start, now);
      }
      break;
  }
  return d.count() < 0 ? std::chrono::seconds(0) : d;
}

}  // namespace trainctl::jobs
