// Suspended kubeflow jobs (see job_suspend.h).
#include "kubesim/controllers/job_suspend.h"

#include "kubesim/controllers/job_conditions.h"

namespace kubesim {

bool run_policy_suspended(const json& job) {
  const json spec = job.value("spec", json::object());
  const json rp = spec.value("runPolicy", json::object());
  return rp.is_object() && rp.value("suspend", false);
}

bool set_condition_false(json& status, const std::string& type, const std::string& reason,
                         const std::string& message, const std::string& now) {
  if (!status.contains("conditions") || !status["conditions"].is_array()) return false;
  for (auto& c : status["conditions"]) {
    if (c.value("type", "") != type) continue;
    if (c.value("status", "") == "False" && c.value("reason", "") == reason) return false;
    const std::string transition =
        c.value("status", "") == "False" ? c.value("lastTransitionTime", now) : now;
    c = {{"type", type},       {"status", "False"},     {"reason", reason},
         {"message", message}, {"lastUpdateTime", now}, {"lastTransitionTime", transition}};
    return true;
  }
  return false;
}

bool hold_suspended_kubeflow(Context& ctx, const ResourceType& rt, const json& job, const ObjectList& pods,
                             json& status) {
  const std::string kind = job.value("kind", rt.kind), name = meta_name(job), now = ctx.now_str();
  if (!run_policy_suspended(job)) {
    // common/job.go ReconcileJobs: a job resumed from suspension gets Suspended False and a
    // new startTime.
    if (!status_condition_true(status, "Suspended")) return false;
    set_condition_false(status, "Suspended", kind + "Resumed", kind + " " + name + " is resumed.", now);
    status["startTime"] = now;
    return false;
  }
  // CleanUpResources (pods; kubesim makes no PodGroup for these), every replica's active 0,
  // Running False and Suspended True with reason <Kind>Suspended. startTime stays.
  for (const auto& p : pods) {
    try {
      ctx.store.remove(*ctx.pods, meta_ns(*p), meta_name(*p));
    } catch (const StatusError&) {
    }
  }
  if (status.contains("replicaStatuses") && status["replicaStatuses"].is_object())
    for (auto& [type, rs] : status["replicaStatuses"].items())
      if (rs.is_object()) rs["active"] = 0;
  const std::string msg = kind + " " + name + " is suspended.";
  if (status_condition_true(status, "Running"))
    set_condition_false(status, "Running", kind + "Suspended", msg, now);
  if (!status_condition_true(status, "Suspended"))
    update_job_condition(status, "Suspended", kind + "Suspended", msg, now);
  ctx.patch(rt, meta_ns(job), name, [&](json& obj) { obj["status"] = status; });
  return true;
}

}  // namespace kubesim
