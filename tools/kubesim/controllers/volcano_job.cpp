// Volcano Job: pods, PodGroup, phases and policies like volcano-sh/volcano's job controller.
#include "kubesim/controllers/volcano_job.h"

#include "kubesim/controllers/pod_status.h"
#include "kubesim/controllers/run_policy.h"

namespace kubesim {

namespace {

const json& tasks_of(const json& job) {
  static const json empty = json::array();
  auto spec = job.find("spec");
  if (spec == job.end()) return empty;
  auto it = spec->find("tasks");
  return it != spec->end() && it->is_array() ? *it : empty;
}

int64_t total_replicas(const json& job) {
  int64_t n = 0;
  for (const auto& t : tasks_of(job)) n += int_or(t, "replicas", 1);
  return n;
}

int64_t min_available(const json& job) { return int_or(job["spec"], "minAvailable", total_replicas(job)); }

std::string queue_of(const json& job) { return job["spec"].value("queue", "default"); }

// The action a policy list gives for an event ("" = none).
std::string action_for(const json& policies, const std::string& event) {
  if (!policies.is_array()) return "";
  for (const auto& p : policies) {
    std::vector<std::string> events;
    if (p.contains("event") && p["event"].is_string()) events.push_back(p["event"]);
    for (const auto& e : p.value("events", json::array()))
      if (e.is_string()) events.push_back(e);
    for (const auto& e : events)
      if (e == event || e == "*" || e == "Any") return p.value("action", "");
  }
  return "";
}

bool is_terminal_phase(const std::string& phase) {
  return phase == "Completed" || phase == "Failed" || phase == "Aborted" || phase == "Terminated";
}

}  // namespace

std::string VolcanoJobController::pod_group_name(const json& job) {
  return meta_name(job) + "-" + meta_uid(job);
}

json VolcanoJobController::make_pod(const json& job, const json& task, int index) {
  const std::string jname = meta_name(job), tname = task.value("name", "task");
  const std::string name = jname + "-" + tname + "-" + std::to_string(index);
  json tmpl = task.value("template", json::object());
  json meta = tmpl.value("metadata", json::object());
  json labels = meta.value("labels", json::object());
  labels["volcano.sh/job-name"] = jname;
  labels["volcano.sh/job-namespace"] = meta_ns(job);
  labels["volcano.sh/queue-name"] = queue_of(job);
  labels["volcano.sh/task-spec"] = tname;
  labels["volcano.sh/task-index"] = std::to_string(index);
  json ann = meta.value("annotations", json::object());
  ann["scheduling.k8s.io/group-name"] = pod_group_name(job);
  ann["volcano.sh/job-name"] = jname;
  ann["volcano.sh/job-version"] = std::to_string(int_or(job.value("status", json::object()), "version", 0));
  ann["volcano.sh/queue-name"] = queue_of(job);
  ann["volcano.sh/task-spec"] = tname;
  ann["volcano.sh/task-index"] = std::to_string(index);
  meta["labels"] = labels;
  meta["annotations"] = ann;
  meta["name"] = name;
  meta["namespace"] = meta_ns(job);
  meta["ownerReferences"] = json::array({owner_reference(job)});
  meta.erase("creationTimestamp");
  inherit_sim_annotations(job, meta);
  json spec = tmpl.value("spec", json::object());
  spec["schedulerName"] = job["spec"].value("schedulerName", "volcano");
  const json plugins = job["spec"].value("plugins", json::object());
  if (plugins.contains("svc")) {
    spec["hostname"] = name;
    spec["subdomain"] = jname;
  }
  if (plugins.contains("env") && spec.contains("containers"))
    for (auto& c : spec["containers"]) {
      if (!c.contains("env") || !c["env"].is_array()) c["env"] = json::array();
      c["env"].push_back({{"name", "VK_TASK_INDEX"}, {"value", std::to_string(index)}});
      c["env"].push_back({{"name", "VC_TASK_INDEX"}, {"value", std::to_string(index)}});
    }
  return {{"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", meta}, {"spec", spec}};
}

void VolcanoJobController::reconcile(const std::string& ns, const std::string& name) {
  auto ptr = m_ctx.store.get_shared(*m_ctx.vcjobs, ns, name);
  if (!ptr || !ptr->contains("spec")) return;
  const json job = *ptr;
  const std::string now = m_ctx.now_str();
  json status = job.value("status", json::object());
  std::string phase = status.value("state", json::object()).value("phase", "");
  const ObjectList pods = m_ctx.children(*m_ctx.pods, job);
  const std::string pg_name = pod_group_name(job);

  if (is_terminal_phase(phase)) {
    if (job["spec"].contains("ttlSecondsAfterFinished")) {
      const TimePoint expiry = parse_time(status["state"].value("lastTransitionTime", now)) +
                               std::chrono::seconds(int_or(job["spec"], "ttlSecondsAfterFinished", 0));
      if (m_ctx.now() >= expiry)
        m_ctx.store.remove(*m_ctx.vcjobs, ns, name);
      else
        m_ctx.wake_at(ObjectKey{m_ctx.vcjobs, ns, name}, expiry);
    }
    return;
  }
  const int64_t min_avail = min_available(job);
  if (m_ctx.podgroups) {
    json min_task = json::object();
    for (const auto& t : tasks_of(job))
      min_task[t.value("name", "task")] = int_or(t, "minAvailable", int_or(t, "replicas", 1));
    m_ctx.create_if_absent(
        *m_ctx.podgroups,
        {{"apiVersion", "scheduling.volcano.sh/v1beta1"},
         {"kind", "PodGroup"},
         {"metadata",
          {{"name", pg_name}, {"namespace", ns}, {"ownerReferences", json::array({owner_reference(job)})}}},
         {"spec", {{"minMember", min_avail}, {"minTaskMember", min_task}, {"queue", queue_of(job)}}},
         {"status", {{"phase", "Pending"}}}});
  }
  if (job["spec"].value("plugins", json::object()).contains("svc") && m_ctx.services) {
    json sel = {{"volcano.sh/job-name", name}, {"volcano.sh/job-namespace", ns}};
    m_ctx.create_if_absent(
        *m_ctx.services,
        {{"apiVersion", "v1"},
         {"kind", "Service"},
         {"metadata",
          {{"name", name}, {"namespace", ns}, {"ownerReferences", json::array({owner_reference(job)})}}},
         {"spec", {{"clusterIP", "None"}, {"selector", sel}, {"publishNotReadyAddresses", true}}}});
  }

  auto set_phase = [&](const std::string& p, const std::string& reason, const std::string& message) {
    if (phase == p) return;
    phase = p;
    status["state"] = {{"phase", p}, {"lastTransitionTime", now}};
    if (!reason.empty()) status["state"]["reason"] = reason;
    if (!message.empty()) status["state"]["message"] = message;
    if (!status.contains("conditions")) status["conditions"] = json::array();
    status["conditions"].push_back({{"status", p}, {"lastTransitionTime", now}});
  };
  auto delete_pods = [&](bool only_active) {
    for (const auto& p : pods) {
      if (only_active && pod_terminal(*p)) continue;
      try {
        m_ctx.store.remove(*m_ctx.pods, ns, meta_name(*p));
      } catch (const StatusError&) {
      }
    }
  };
  if (phase.empty()) set_phase("Pending", "", "");
  status["minAvailable"] = min_avail;
  if (!status.contains("version")) status["version"] = 0;
  if (!status.contains("retryCount")) status["retryCount"] = 0;

  // Count pods per task and per phase.
  std::map<std::string, std::shared_ptr<const json>> by_name;
  for (const auto& p : pods) by_name[meta_name(*p)] = p;
  int64_t pending = 0, running = 0, succeeded = 0, failed = 0;
  json task_counts = json::object();
  std::string fail_action, complete_action;
  for (const auto& t : tasks_of(job)) {
    const std::string tname = t.value("name", "task");
    const int64_t replicas = int_or(t, "replicas", 1);
    int64_t t_succeeded = 0;
    for (int i = 0; i < replicas; ++i) {
      auto it = by_name.find(name + "-" + tname + "-" + std::to_string(i));
      if (it == by_name.end()) continue;
      std::string ph = phase_of(*it->second);
      if (ph.empty()) ph = "Pending";
      json& counts = task_counts[tname]["phase"];
      counts[ph] = int_or(counts, ph, 0) + 1;
      if (ph == "Pending") ++pending;
      if (ph == "Running") ++running;
      if (ph == "Succeeded") ++succeeded, ++t_succeeded;
      if (ph == "Failed") {
        ++failed;
        std::string a = action_for(t.value("policies", json::array()), "PodFailed");
        if (a.empty()) a = action_for(job["spec"].value("policies", json::array()), "PodFailed");
        if (!a.empty() && fail_action.empty()) fail_action = a;
      }
    }
    if (t_succeeded == replicas && replicas > 0) {
      std::string a = action_for(t.value("policies", json::array()), "TaskCompleted");
      if (a.empty()) a = action_for(job["spec"].value("policies", json::array()), "TaskCompleted");
      if (!a.empty() && complete_action.empty()) complete_action = a;
    }
  }
  const bool pods_exist = !pods.empty();

  if (phase == "Restarting") {
    if (!pods_exist) set_phase("Pending", "", "");
  } else if (!fail_action.empty() && (phase == "Running" || phase == "Pending")) {
    if (fail_action == "RestartJob") {
      const int64_t retries = int_or(status, "retryCount", 0) + 1;
      if (retries > int_or(job["spec"], "maxRetry", 3)) {
        set_phase("Failed", "", "");
        delete_pods(true);
      } else {
        status["retryCount"] = retries;
        status["version"] = int_or(status, "version", 0) + 1;
        set_phase("Restarting", "PodFailed", "");
        delete_pods(false);
      }
    } else if (fail_action == "AbortJob") {
      set_phase("Aborted", "PodFailed", "");
      delete_pods(true);
    } else if (fail_action == "TerminateJob") {
      set_phase("Terminated", "PodFailed", "");
      delete_pods(true);
    } else if (fail_action == "CompleteJob") {
      set_phase("Completed", "PodFailed", "");
      delete_pods(true);
    }
  } else if (complete_action == "CompleteJob" && (phase == "Running" || phase == "Pending")) {
    set_phase("Completed", "TaskCompleted", "");
    delete_pods(true);
  } else if (pods_exist && pending == 0 && running == 0 && succeeded + failed >= total_replicas(job)) {
    set_phase(succeeded >= min_avail ? "Completed" : "Failed", "", "");
  } else if (running + succeeded >= min_avail && phase == "Pending") {
    set_phase("Running", "", "");
  }
  if (phase == "Pending" || phase == "Running") {
    json with_status = job;
    with_status["status"] = status;
    for (const auto& t : tasks_of(job)) {
      const std::string tname = t.value("name", "task");
      for (int i = 0; i < int_or(t, "replicas", 1); ++i)
        if (!by_name.count(name + "-" + tname + "-" + std::to_string(i)))
          m_ctx.create_if_absent(*m_ctx.pods, make_pod(with_status, t, i));
    }
  }
  status["pending"] = pending;
  status["running"] = running;
  status["succeeded"] = succeeded;
  status["failed"] = failed;
  status["terminating"] = 0;
  status["unknown"] = 0;
  status["taskStatusCount"] = task_counts;
  m_ctx.patch(*m_ctx.vcjobs, ns, name, [&](json& obj) { obj["status"] = status; });
  if (m_ctx.podgroups) {
    m_ctx.patch(*m_ctx.podgroups, ns, pg_name, [&](json& pg) {
      pg["status"]["phase"] =
          running + succeeded >= min_avail ? "Running" : (is_terminal_phase(phase) ? "Completed" : "Pending");
      pg["status"]["running"] = running;
      pg["status"]["succeeded"] = succeeded;
      pg["status"]["failed"] = failed;
    });
  }
}

}  // namespace kubesim
