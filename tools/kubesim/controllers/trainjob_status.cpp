// A TrainJob's status from its JobSet and its deadline (kubeflow/trainer v2.3.0
// pkg/runtime/framework/plugins/jobset/jobset.go Status; pkg/controller/trainjob_controller.go
// setTrainJobStatus, reconcileDeadline, setFailedCondition).
#include "kubesim/controllers/trainjob.h"
#include "object/fields.h"

namespace kubesim {

void TrainJobController::trainjob_status(const json& tj, json& status) {
  if (!m_t.jobsets) return;
  auto js = m_ctx.store.get_shared(*m_t.jobsets, meta_ns(tj), meta_name(tj));
  // A missing JobSet: an error for an unfinished TrainJob (the status is left as it is), and
  // nothing to copy for a finished one (a JobSet removed by its TTL).
  if (!js) return;
  json& conds = status["conditions"];
  const json& failed = trainctl::object::find_condition(conds, "Failed");
  const json remembered_deadline = trainctl::object::str(failed, "reason") == "DeadlineExceeded" ? failed : json();
  for (const auto& c : js->value("status", json::object()).value("conditions", json::array())) {
    if (c.value("status", "") != "True") continue;
    const std::string type = c.value("type", "");
    if (type != "Completed" && type != "Failed") continue;
    json copy = c;
    copy["type"] = type == "Completed" ? "Complete" : "Failed";
    set_meta_condition(conds, copy, m_ctx.now_str());
  }
  if (remembered_deadline.is_object()) set_meta_condition(conds, remembered_deadline, m_ctx.now_str());
  json jobs = json::array();
  for (const auto& s : js->value("status", json::object()).value("replicatedJobsStatus", json::array()))
    jobs.push_back({{"name", s.value("name", "")},
                    {"ready", s.value("ready", 0)},
                    {"succeeded", s.value("succeeded", 0)},
                    {"failed", s.value("failed", 0)},
                    {"active", s.value("active", 0)},
                    {"suspended", s.value("suspended", 0)}});
  if (jobs.empty()) status.erase("jobsStatus");
  else status["jobsStatus"] = jobs;
}

void TrainJobController::deadline(const json& tj, json& status) {
  const int64_t seconds = int_or(tj["spec"], "activeDeadlineSeconds", 0);
  json current = tj;
  current["status"] = status;
  if (seconds == 0 || condition_true(current, "Complete") || condition_true(current, "Failed") ||
      tj["spec"].value("suspend", false))
    return;
  std::string start = tj["metadata"].value("creationTimestamp", "");
  const json& resumed = trainctl::object::find_condition(trainctl::object::at(status, "conditions"), "Suspended");
  if (trainctl::object::str(resumed, "status") == "False") start = resumed.value("lastTransitionTime", start);
  if (start.empty()) return;
  const TimePoint end = parse_time(start) + std::chrono::seconds(seconds);
  if (m_ctx.now() <= end) {
    m_ctx.wake_at(ObjectKey{primary(), meta_ns(tj), meta_name(tj)}, end + std::chrono::seconds(1));
    return;
  }
  set_meta_condition(status["conditions"],
                     {{"type", "Failed"}, {"status", "True"}, {"reason", "DeadlineExceeded"},
                      {"message", "TrainJob exceeded its active deadline"}},
                     m_ctx.now_str());
  if (m_t.jobsets && m_ctx.store.get_shared(*m_t.jobsets, meta_ns(tj), meta_name(tj))) {
    try {
      m_ctx.store.remove(*m_t.jobsets, meta_ns(tj), meta_name(tj));
    } catch (const StatusError&) {
    }
  }
}

}  // namespace kubesim
