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

}  // namespace

std::string replica_label(const nlohmann::json& pod, const std::string& key) {
  std::string v = replica_meta(pod, "labels", key);
  return v.empty() ? replica_meta(pod, "annotations", key) : v;
}

std::optional<long long> replica_number(const std::string& text) {
  if (text.empty() || text.size() > 12 || text.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  return std::stoll(text);
}

Replica replica_of(const JobKind& kind, const std::string& job, const nlohmann::json& pod) {
  Replica r;
  if (pod.contains("metadata") && pod["metadata"].contains("name") && pod["metadata"]["name"].is_string())
    r.pod = pod["metadata"]["name"].get<std::string>();
  const ReplicaPlace place = kind.replica(pod, job);
  r.role = ascii_lower(place.role);
  r.rank = place.rank;
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
