#include "jobs/replica.h"

#include <array>
#include <tuple>

#include "core/text.h"

namespace trainctl::jobs {
namespace {

std::string replica_meta(const nlohmann::json& pod, const char* field, const std::string& key) {
  const auto m = pod.find("metadata");
  if (m == pod.end() || !m->contains(field) || !(*m)[field].is_object()) return "";
  const auto it = (*m)[field].find(key);
  return it != (*m)[field].end() && it->is_string() ? it->get<std::string>() : "";
}

std::string replica_label(const nlohmann::json& pod, const std::string& key) {
  std::string v = replica_meta(pod, "labels", key);
  return v.empty() ? replica_meta(pod, "annotations", key) : v;
}

std::optional<long long> replica_number(const std::string& text) {
  if (text.empty() || text.size() > 12 || text.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  return std::stoll(text);
}

}  // namespace

Replica replica_of(const JobKind& kind, const std::string& job, const nlohmann::json& pod) {
  Replica r;
  if (pod.contains("metadata") && pod["metadata"].contains("name") && pod["metadata"]["name"].is_string())
    r.pod = pod["metadata"]["name"].get<std::string>();
  const std::string kf = "training.kubeflow.org/";
  switch (kind.trainer) {
    case Trainer::PyTorch:
    case Trainer::TF:
      r.role = replica_label(pod, kf + "replica-type");
      r.rank = replica_number(replica_label(pod, kf + "replica-index"));
      break;
    case Trainer::MPI:
      r.role = replica_label(pod, kf + "job-role");
      r.rank = replica_number(replica_label(pod, kf + "replica-index"));
      if (!r.rank && r.role == "launcher") r.rank = 0;
      break;
    case Trainer::Volcano: {
      r.role = replica_label(pod, "volcano.sh/task-spec");
      r.rank = replica_number(replica_label(pod, "volcano.sh/task-index"));
      const std::string prefix = job + "-" + r.role + "-";
      if (!r.rank && !r.role.empty() && r.pod.rfind(prefix, 0) == 0)
        r.rank = replica_number(r.pod.substr(prefix.size()));
      break;
    }
    case Trainer::TrainJob:  // JobSet pods: jobset.sigs.k8s.io/replicatedjob-name, job-index
      r.role = replica_label(pod, "jobset.sigs.k8s.io/replicatedjob-name");
      r.rank = replica_number(replica_label(pod, "jobset.sigs.k8s.io/job-index"));
      break;
    case Trainer::PyTorchNoOperator:
      if (auto i = replica_number(replica_label(pod, "batch.kubernetes.io/job-completion-index"))) {
        r.role = *i == 0 ? "master" : "worker";
        r.rank = *i == 0 ? 0 : *i - 1;
      }
      break;
  }
  r.role = ascii_lower(r.role);
  if (!r.role.empty()) {
    r.label = r.role + (r.rank ? "-" + std::to_string(*r.rank) : "");
  } else {
    r.label = r.pod.rfind(job + "-", 0) == 0 && r.pod.size() > job.size() + 1 ? r.pod.substr(job.size() + 1)
                                                                              : r.pod;
  }
  return r;
}

bool ReplicaFilter::matches(const Replica& r) const {
  if (!role.empty() && ascii_lower(role) != r.role) return false;
  if (rank && r.rank != rank) return false;
  return true;
}

bool replica_before(const Replica& a, const Replica& b) {
  static constexpr std::array<std::string_view, 6> kOrder = {"chief", "master", "launcher",
                                                             "ps",    "worker", "evaluator"};
  auto order = [](const std::string& role) {
    for (size_t i = 0; i < kOrder.size(); ++i)
      if (kOrder[i] == role) return i;
    return kOrder.size();
  };
  return std::make_tuple(order(a.role), a.role, a.rank.value_or(-1), a.pod) <
         std::make_tuple(order(b.role), b.role, b.rank.value_or(-1), b.pod);
}

}  // namespace trainctl::jobs
