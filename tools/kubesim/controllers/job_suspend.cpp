// Suspended kubeflow jobs (see job_suspend.h).
#include "kubesim/controllers/job_suspend.h"

#include "kubesim/controllers/job_conditions.h"

namespace kubesim {

bool run_policy_suspended(const json& job) {
  const json spec = job.value("spec", json::object());
  const json rp = spec.value("runPolicy", json::object());
  return rp.is_object() && rp.value("suspend", false);
}

bool hold_suspended_kubeflow(Context& ctx, const ResourceType& rt, const json& job, const ObjectList& pods,
                             json& status) {
  const std::string kind = job.value("kind", rt.kind), name = meta_name(job), now = ctx.now_str();
  if (!run_policy_suspended(job)) {
    // common/job.go: a job resumed from suspension gets Suspended False and a new startTime.
    if (!has_true_condition(status, "Suspended")) return false;
    for (auto& c : status["conditions"]) {
      if (c.value("type", "") != "Suspended") continue;
      c = {{"type", "Suspended"}, {"status", "False"}, {"reason", kind + "Resumed"},
           {"message", kind + " " + name + " is resumed."}, {"lastUpdateTime", now}, {"lastTransitionTime", now}};
    }
    return false;
  }
  for (const auto& p : pods) {
    try {
      ctx.store.remove(*ctx.pods, meta_ns(*p), meta_name(*p));
    } catch (const StatusError&) {
    }
  }
  update_job_condition(status, "Suspended", kind + "Suspended", kind + " " + name + " is suspended.", now);
  status.erase("startTime");
  ctx.patch(rt, meta_ns(job), name, [&](json& obj) { obj["status"] = status; });
  return true;
}

}  // namespace kubesim
