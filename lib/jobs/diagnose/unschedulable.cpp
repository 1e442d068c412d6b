#include "jobs/diagnose/unschedulable.h"

#include <algorithm>
#include <set>

#include "jobs/json_util.h"
#include "jobs/legacy_pods.h"
#include "kube/list_reads.h"

namespace trainctl::jobs {

using nlohmann::json;


std::optional<std::string> unschedulable_message(kube::Client& client, const JobKind& kind,
                                                 const std::string& ns, const std::string& name) {
  auto pods = read_job_pods(client, kind, ns, name);
  std::sort(pods.begin(), pods.end(), [](const json& a, const json& b) { return name_of(a) < name_of(b); });
  std::set<std::string> groups;
  for (const auto& pod : pods) {
    const json& c = condition(pod, "PodScheduled");
    if (str(c, "status") == "False" && str(c, "reason") == "Unschedulable")
      return "pod " + name_of(pod) + ": " + str(c, "message");
    const std::string group = annotation(pod, "scheduling.k8s.io/group-name");
    if (!group.empty()) groups.insert(group);
  }
  if (groups.empty()) return std::nullopt;
  std::vector<kube::Read> reads;
  for (const auto& g : groups) reads.push_back({kube::pod_groups().object_path(ns, g), false, {}});
  const auto found = kube::read_all(client, reads);
  for (const auto& r : found) {
    if (r.not_found) continue;
    const json& c = condition(r.object, "Unschedulable");
    if (str(c, "status") == "True") return "PodGroup " + name_of(r.object) + ": " + str(c, "message");
  }
  return std::nullopt;
}

}  // namespace trainctl::jobs
