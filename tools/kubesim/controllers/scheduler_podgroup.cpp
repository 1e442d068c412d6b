// What volcano-scheduler writes about a gang it cannot place: the gang plugin's
// OnSessionClose sets the PodGroup condition Unschedulable (reason NotEnoughResources) with
//   "%v/%v tasks in gang unschedulable: %v" (minAvailable - ready tasks, all tasks, FitError)
// and the cache's RecordJobStatusEvent a Warning event "Unschedulable" on the PodGroup.
// JobInfo.FitError (pkg/scheduler/api/job_info.go): "pod group is not ready, " then the sorted
// histogram of task statuses and minAvailable ("1 Running, 3 Pending, 4 minAvailable"), then
// "; Pending: " and the histogram of the pending tasks' reasons ("3 Unschedulable").
#include <algorithm>
#include <vector>

#include "kubesim/controllers/scheduler.h"

namespace kubesim {

void Scheduler::mark_gang_unschedulable(const json& pod, int64_t min, int64_t bound, size_t pending) {
  if (!m_ctx.podgroups) return;
  const std::string group = annotation(pod, "scheduling.k8s.io/group-name");
  std::vector<std::string> statuses = {std::to_string(pending) + " Pending",
                                       std::to_string(min) + " minAvailable"};
  if (bound > 0) statuses.push_back(std::to_string(bound) + " Running");
  std::sort(statuses.begin(), statuses.end());
  std::string fit = "pod group is not ready";
  for (const auto& s : statuses) fit += ", " + s;
  fit += "; Pending: " + std::to_string(pending) + " Unschedulable";
  const int64_t total = bound + static_cast<int64_t>(pending);
  const std::string message =
      std::to_string(min - bound) + "/" + std::to_string(total) + " tasks in gang unschedulable: " + fit;
  const std::string ts = m_ctx.now_str();
  m_ctx.patch(*m_ctx.podgroups, meta_ns(pod), group, [&](json& pg) {
    json& st = pg["status"];
    if (!st.is_object()) st = json::object();
    json& conds = st["conditions"];
    if (!conds.is_array()) conds = json::array();
    for (auto& c : conds)
      if (c.value("type", "") == "Unschedulable") {
        if (c.value("message", "") == message) return;
        c = json::object();
      }
    conds.erase(std::remove(conds.begin(), conds.end(), json::object()), conds.end());
    conds.push_back({{"type", "Unschedulable"},
                     {"status", "True"},
                     {"reason", "NotEnoughResources"},
                     {"message", message},
                     {"lastTransitionTime", ts},
                     {"transitionID", ""}});
  });
  auto pg = m_ctx.store.get_shared(*m_ctx.podgroups, meta_ns(pod), group);
  if (!pg) return;
  const std::string event =
      std::to_string(pending) + "/" + std::to_string(total) + " tasks in gang unschedulable: " + fit;
  const TimePoint now = m_ctx.now();
  auto& last = m_last_event[meta_uid(*pg)];  // as mark_unschedulable: once per message per 30 s
  if (last.first == event && now - last.second < std::chrono::seconds(30)) return;
  last = {event, now};
  m_ctx.record_event(*pg, "Warning", "Unschedulable", event, "volcano");
}

}  // namespace kubesim
