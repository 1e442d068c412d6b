// Volcano v1.15.1 policies, PodGroup phases and default queues (see volcano_policy.h).
#include "kubesim/controllers/volcano_policy.h"

#include "kubesim/controllers/pod_status.h"
#include "kubesim/controllers/run_policy.h"

namespace kubesim {

namespace {

// getEventlist + checkEventExist: `events` plus `event`; "*" (AnyEvent) matches any.
bool matches(const json& policy, const std::string& event) {
  std::vector<std::string> events;
  for (const auto& e : policy.value("events", json::array()))
    if (e.is_string()) events.push_back(e);
  if (policy.contains("event") && policy["event"].is_string() && !policy["event"].get<std::string>().empty())
    events.push_back(policy["event"]);
  if (events.empty() || event.empty()) return false;
  for (const auto& e : events)
    if (e == event || e == "*") return true;
  return false;
}

// One list of policies; "" when none applies. PodPending needs a timeout to apply.
std::string first_action(const json& policies, const std::string& event, int exit_code) {
  if (!policies.is_array()) return "";
  for (const auto& p : policies) {
    if (matches(p, event) && (event != "PodPending" || p.contains("timeout"))) return p.value("action", "");
    if (exit_code >= 0 && p.contains("exitCode") && p["exitCode"].is_number() &&
        p["exitCode"].get<int>() == exit_code)
      return p.value("action", "");
  }
  return "";
}

int first_exit_code(const json& pod) {
  const json cs = pod.value("status", json::object()).value("containerStatuses", json::array());
  if (cs.empty()) return 0;
  const json st = cs[0].value("state", json::object());
  return st.contains("terminated") ? static_cast<int>(int_or(st["terminated"], "exitCode", 0)) : 0;
}

bool scheduled(const json& pod) {
  const std::string ph = phase_of(pod);
  return !pod.value("spec", json::object()).value("nodeName", "").empty() || ph == "Running" ||
         ph == "Succeeded" || ph == "Failed";
}

}  // namespace

std::string policy_action(const json& job, const std::string& task, const std::string& event, int exit_code) {
  for (const auto& t : job["spec"].value("tasks", json::array())) {
    if (t.value("name", "") != task) continue;
    const std::string a = first_action(t.value("policies", json::array()), event, exit_code);
    if (!a.empty()) return a;
    break;
  }
  const std::string a = first_action(job["spec"].value("policies", json::array()), event, exit_code);
  return a.empty() ? "SyncJob" : a;
}

PolicyAction volcano_action(const json& job, const std::vector<std::shared_ptr<const json>>& pods) {
  const std::string version = std::to_string(int_or(job.value("status", json::object()), "version", 0));
  std::vector<std::shared_ptr<const json>> sorted = pods;
  std::sort(sorted.begin(), sorted.end(),
            [](const auto& a, const auto& b) { return meta_name(*a) < meta_name(*b); });
  for (const auto& p : sorted) {
    if (phase_of(*p) != "Failed" || annotation(*p, "volcano.sh/job-version") != version) continue;
    const std::string task = annotation(*p, "volcano.sh/task-spec");
    const std::string a = policy_action(job, task, "PodFailed", first_exit_code(*p));
    if (a != "SyncJob") return {a, task, meta_name(*p)};
  }
  for (const auto& t : job["spec"].value("tasks", json::array())) {
    const std::string task = t.value("name", "");
    const int64_t replicas = int_or(t, "replicas", 0);
    int64_t done = 0;
    bool current = false;
    for (const auto& p : pods) {
      if (annotation(*p, "volcano.sh/task-spec") != task || phase_of(*p) != "Succeeded") continue;
      ++done;
      current = current || annotation(*p, "volcano.sh/job-version") == version;
    }
    if (replicas <= 0 || done < replicas || !current) continue;
    const std::string a = policy_action(job, task, "TaskCompleted", -1);
    if (a != "SyncJob") return {a, task, ""};
  }
  return {};
}

std::string update_pod_group(Context& ctx, const json& job,
                             const std::vector<std::shared_ptr<const json>>& pods, bool existed) {
  if (!ctx.podgroups) return "Inqueue";
  const std::string ns = meta_ns(job), name = meta_name(job) + "-" + meta_uid(job);
  auto pg = ctx.store.get_shared(*ctx.podgroups, ns, name);
  if (!pg) return "";
  const std::string phase = pg->value("status", json::object()).value("phase", "");
  if (!existed) return phase;
  int64_t n_scheduled = 0, completed = 0, running = 0, succeeded = 0, failed = 0;
  for (const auto& p : pods) {
    if (annotation(*p, "scheduling.k8s.io/group-name") != name) continue;
    const std::string ph = phase_of(*p);
    if (scheduled(*p)) ++n_scheduled;
    if (ph == "Succeeded" || ph == "Failed") ++completed;
    if (ph == "Running") ++running;
    if (ph == "Succeeded") ++succeeded;
    if (ph == "Failed") ++failed;
  }
  std::string next = phase;
  if (n_scheduled >= int_or((*pg)["spec"], "minMember", 0)) {
    next = n_scheduled == completed ? "Completed" : "Running";
  } else if (phase != "Inqueue") {
    // The enqueue action admits a Pending PodGroup of an open queue (no capacity check here).
    bool open = true;
    if (ctx.queues) {
      auto q = ctx.store.get_shared(*ctx.queues, "", (*pg)["spec"].value("queue", "default"));
      open = q && q->value("status", json::object()).value("state", "Open") != "Closed";
    }
    next = open ? "Inqueue" : "Pending";
  }
  ctx.patch(*ctx.podgroups, ns, name, [&](json& obj) {
    json& st = obj["status"];
    if (!st.is_object()) st = json::object();
    st["phase"] = next;
    st["running"] = running;
    st["succeeded"] = succeeded;
    st["failed"] = failed;
  });
  return next;
}

void ensure_default_queues(Context& ctx) {
  if (!ctx.queues) return;
  for (const auto& [name, reclaimable] : {std::pair<const char*, bool>{"root", false}, {"default", true}}) {
    if (ctx.store.get_shared(*ctx.queues, "", name)) continue;
    try {
      ctx.store.create(*ctx.queues, {{"apiVersion", "scheduling.volcano.sh/v1beta1"},
                                     {"kind", "Queue"},
                                     {"metadata", {{"name", name}}},
                                     {"spec", {{"reclaimable", reclaimable}, {"weight", 1}}}});
    } catch (const StatusError&) {
    }
  }
}

}  // namespace kubesim
