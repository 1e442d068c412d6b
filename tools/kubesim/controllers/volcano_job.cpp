// Volcano Job: the state machine of volcano v1.15.1 (pkg/controllers/job/state/*.go) driven
// by the events of job_controller_handler.go and the policies of job_controller_util.go
// applyPolicies, with syncJob / killPods of job_controller_actions.go.
//
// kubesim reconciles by level, not by event: a PodFailed event is a Failed pod of the
// current job version (status.version), a TaskCompleted event a task whose replicas all
// Succeeded with at least one pod of the current version. Not modelled: PodEvicted (a pod
// deleted by someone else), TaskFailed, PodPending with timeouts, policy timeouts (the action
// runs at once), dependsOn, partitions, networkTopology, job forwarding.
#include "kubesim/controllers/volcano_job.h"

#include <cctype>
#include <map>

#include "kubesim/controllers/pod_status.h"
#include "kubesim/controllers/run_policy.h"
#include "kubesim/controllers/volcano_policy.h"

namespace kubesim {

namespace {

// finishedState (state/factory.go): Completed, Failed, Terminated. Aborted is not finished:
// ResumeJob restarts it (state/aborted.go).
bool is_terminal_phase(const std::string& phase) {
  return phase == "Completed" || phase == "Failed" || phase == "Terminated";
}

std::string pod_phase(const json& pod) {
  const std::string p = phase_of(pod);
  return p.empty() ? "Pending" : p;  // kube-apiserver sets Pending on create
}

bool terminating(const json& pod) { return pod["metadata"].contains("deletionTimestamp"); }

std::string lower_first(std::string s) {  // "Pending" -> "pending"
  s[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(s[0])));
  return s;
}

// The pod counts of the job status (classifyAndAddUpPodBaseOnPhase + calcPodStatus):
// status.pending/running/succeeded/failed/unknown by phase, taskStatusCount per task.
struct Counts {
  std::map<std::string, int64_t> phases = {
      {"Pending", 0}, {"Running", 0}, {"Succeeded", 0}, {"Failed", 0}, {"Unknown", 0}};
  int64_t terminating = 0;
  json tasks = json::object();
  void add(const json& pod) {
    std::string key = pod_phase(pod);
    if (!phases.count(key)) key = "Unknown";
    ++phases[key];
    const std::string task = annotation(pod, "volcano.sh/task-spec");
    if (task.empty()) return;
    json& c = tasks[task]["phase"];
    c[key] = int_or(c, key, 0) + 1;
  }
  void write(json& status) const {
    for (const auto& [phase, n] : phases) status[lower_first(phase)] = n;
    status["terminating"] = terminating;
    status["taskStatusCount"] = tasks;
  }
};

int64_t total_replicas(const json& job) {
  int64_t n = 0;
  for (const auto& t : job["spec"]["tasks"]) n += int_or(t, "replicas", 0);
  return n;
}

int64_t total_task_min_available(const json& job) {
  int64_t n = 0;
  for (const auto& t : job["spec"]["tasks"]) n += int_or(t, "minAvailable", int_or(t, "replicas", 0));
  return n;
}

// runningState's SyncJob update (state/running.go).
void running_update(const json& job, json& st) {
  const int64_t replicas = total_replicas(job);
  if (replicas == 0) return;
  const int64_t min_available = int_or(job["spec"], "minAvailable", 0);
  const bool has_min_success = job["spec"].contains("minSuccess") && job["spec"]["minSuccess"].is_number();
  const int64_t min_success = int_or(job["spec"], "minSuccess", 0);
  const int64_t succeeded = int_or(st, "succeeded", 0), failed = int_or(st, "failed", 0);
  auto set = [&](const char* p) { st["state"]["phase"] = p; };
  if (has_min_success && succeeded >= min_success) return set("Completed");
  if (succeeded + failed == replicas) {
    if (min_available >= total_task_min_available(job))
      for (const auto& t : job["spec"]["tasks"]) {
        if (!t.contains("minAvailable")) continue;
        const json counts = st["taskStatusCount"].value(t.value("name", ""), json::object());
        if (counts.is_object() && !counts.empty() &&
            int_or(counts.value("phase", json::object()), "Succeeded", 0) < int_or(t, "minAvailable", 0))
          return set("Failed");
      }
    if (has_min_success && succeeded < min_success) return set("Failed");
    return set(succeeded >= min_available ? "Completed" : "Failed");
  }
  if (int_or(st, "pending", 0) > replicas - min_available) set("Pending");
}

}  // namespace

int64_t VolcanoJobController::kill_pods(const json& job, const ObjectList& pods, bool soft,
                                        const std::string& task, const std::string& pod) {
  int64_t killed = 0;
  const bool whole_job = task.empty();
  const json& st = job.value("status", json::object());
  // Only the Failed and Succeeded pods are kept at the last retry (killPods' lastRetry).
  const bool last_retry = int_or(st, "retryCount", 0) >= int_or(job["spec"], "maxRetry", 3) - 1;
  for (const auto& p : pods) {
    if (terminating(*p)) continue;
    if (whole_job) {
      const std::string ph = phase_of(*p);
      if ((soft || last_retry) && (ph == "Succeeded" || ph == "Failed")) continue;
    } else if (annotation(*p, "volcano.sh/task-spec") != task || (!pod.empty() && meta_name(*p) != pod)) {
      continue;
    }
    try {
      m_ctx.store.remove(*m_ctx.pods, meta_ns(*p), meta_name(*p));
      ++killed;
    } catch (const StatusError&) {
    }
  }
  if (m_ctx.podgroups) try {
      m_ctx.store.remove(*m_ctx.podgroups, meta_ns(job), pod_group_name(job));
    } catch (const StatusError&) {
    }
  return killed;
}

void VolcanoJobController::reconcile(const std::string& ns, const std::string& name) {
  auto ptr = m_ctx.store.get_shared(*m_ctx.vcjobs, ns, name);
  if (!ptr || !ptr->contains("spec")) return;
  json job = defaults(*ptr);
  const std::string now = m_ctx.now_str();
  const json old_status = job.value("status", json::object());
  json status = old_status;
  const ObjectList pods = m_ctx.children(*m_ctx.pods, job);
  const std::string pg_name = pod_group_name(job);
  if (!status.contains("state") || !status["state"].is_object()) status["state"] = json::object();
  std::string phase = status["state"].value("phase", "");

  // Writes the status when it changed; a change stamps state.lastTransitionTime and moves the
  // condition of the current phase to the end (appendJobCondition).
  auto write = [&](json st) {
    if (st == old_status) return;
    st["state"]["lastTransitionTime"] = now;
    json conds = json::array();
    for (const auto& c : st.value("conditions", json::array()))
      if (c.value("status", "") != st["state"].value("phase", "")) conds.push_back(c);
    conds.push_back({{"status", st["state"].value("phase", "")}, {"lastTransitionTime", now}});
    st["conditions"] = conds;
    m_ctx.patch(*m_ctx.vcjobs, ns, name, [&](json& obj) { obj["status"] = st; });
  };
  // killJob / killTarget: status counts hold only pods that could not be deleted (none here).
  auto kill = [&](bool soft, const std::string& task, const std::string& pod,
                  const std::function<void(json&)>& update) {
    const int64_t killed = kill_pods(job, pods, soft, task, pod);
    json st = status;
    Counts c;
    for (const auto& p : pods)
      if (terminating(*p)) ++c.terminating;
    c.terminating += killed;
    c.write(st);
    if (update) update(st);
    // killJob bumps the version at every call; kubesim, which reconciles on every write,
    // only when the call changed something (or it would never stop).
    if (task.empty() && (killed > 0 || st["state"] != status["state"] ||
                         st.value("retryCount", 0) != status.value("retryCount", 0)))
      st["version"] = int_or(st, "version", 0) + 1;
    write(st);
  };

  if (is_terminal_phase(phase)) {  // finishedState: kill what is left, soft
    bool alive = false;
    for (const auto& p : pods) alive = alive || !pod_terminal(*p);
    if (alive || (m_ctx.podgroups && m_ctx.store.get_shared(*m_ctx.podgroups, ns, pg_name)))
      kill(true, "", "", nullptr);
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
  // syncJob starts with GetQueueInfo: a job whose queue does not exist does not progress.
  if (m_ctx.queues && !m_ctx.store.get_shared(*m_ctx.queues, "", job["spec"].value("queue", "default")))
    return;
  if (phase.empty()) {  // initJobStatus
    phase = "Pending";
    status["state"]["phase"] = "Pending";
    status["minAvailable"] = job["spec"]["minAvailable"];
  }
  // The svc plugin's OnJobAdd, once (status.controlledResources["plugin-svc"]).
  if (job["spec"].value("plugins", json::object()).contains("svc") &&
      status.value("controlledResources", json::object()).value("plugin-svc", "") != "svc") {
    if (m_ctx.configmaps) m_ctx.create_if_absent(*m_ctx.configmaps, make_svc_config_map(job));
    if (m_ctx.services) m_ctx.create_if_absent(*m_ctx.services, make_service(job));
    status["controlledResources"]["plugin-svc"] = "svc";
  }
  job["status"] = status;

  // A Command's action, once, ahead of the policies (applyPolicies: req.Action wins).
  PolicyAction act;
  if (auto it = m_ctx.volcano_commands.find(ns + "/" + name); it != m_ctx.volcano_commands.end()) {
    act.action = it->second;
    m_ctx.volcano_commands.erase(it);
  } else {
    act = volcano_action(job, pods);
  }
  auto alive_done = [&](const char* next) {
    return [next](json& st) {
      if (int_or(st, "terminating", 0) || int_or(st, "pending", 0) || int_or(st, "running", 0)) return;
      st["state"]["phase"] = next;
    };
  };
  auto restarting = [&](json& st) {
    st["retryCount"] = int_or(st, "retryCount", 0) + 1;
    st["state"]["phase"] = "Restarting";
  };
  if (phase == "Pending" || phase == "Running") {
    if (act.action == "RestartJob") return kill(false, "", "", restarting);
    if (act.action == "RestartTask") return kill(false, act.task, "", restarting);
    if (act.action == "RestartPod") return kill(false, act.task, act.pod, restarting);
    if (act.action == "AbortJob")
      return kill(true, "", "", [](json& st) { st["state"]["phase"] = "Aborting"; });
    if (act.action == "TerminateJob")
      return kill(true, "", "", [](json& st) { st["state"]["phase"] = "Terminating"; });
    if (act.action == "CompleteJob")
      return kill(true, "", "", [](json& st) { st["state"]["phase"] = "Completing"; });
  }
  if (phase == "Completing") return kill(true, "", "", alive_done("Completed"));
  // aborting.go, aborted.go: ResumeJob restarts the job (Restarting, retryCount + 1); else an
  // Aborting job becomes Aborted once no pod is alive, an Aborted one only has pods killed.
  if ((phase == "Aborting" || phase == "Aborted") && act.action == "ResumeJob")
    return kill(true, "", "", restarting);
  if (phase == "Aborting") return kill(true, "", "", alive_done("Aborted"));
  if (phase == "Aborted") return kill(true, "", "", nullptr);
  if (phase == "Terminating") return kill(true, "", "", alive_done("Terminated"));
  auto restarting_update = [&](json& st) {  // restartingState.restartingUpdateStatus
    if (int_or(st, "retryCount", 0) >= int_or(job["spec"], "maxRetry", 3)) {
      st["state"]["phase"] = "Failed";
      return;
    }
    if (total_replicas(job) - int_or(st, "terminating", 0) >= int_or(st, "minAvailable", 0))
      st["state"]["phase"] = "Pending";
  };
  if (phase == "Restarting" && act.action != "SyncJob") {
    if (act.action == "RestartTask" || act.action == "RestartPod")
      return kill(false, act.task, act.action == "RestartPod" ? act.pod : "", restarting_update);
    return kill(false, "", "", restarting_update);
  }

  // syncJob: createOrUpdatePodGroup, then pods only once the PodGroup left Pending.
  const bool pg_existed = m_ctx.podgroups && m_ctx.store.get_shared(*m_ctx.podgroups, ns, pg_name);
  if (m_ctx.podgroups && !pg_existed) m_ctx.create_if_absent(*m_ctx.podgroups, make_pod_group(job));
  const std::string pg_phase = update_pod_group(m_ctx, job, pods, pg_existed);
  std::function<void(json&)> update;
  if (phase == "Pending")
    update = [&](json& st) {
      if (int_or(job["spec"], "minAvailable", 0) <=
          int_or(st, "running", 0) + int_or(st, "succeeded", 0) + int_or(st, "failed", 0))
        st["state"]["phase"] = "Running";
    };
  else if (phase == "Running")
    update = [&](json& st) { running_update(job, st); };
  else if (phase == "Restarting")
    update = restarting_update;
  if (m_ctx.podgroups && (pg_phase.empty() || pg_phase == "Pending")) {
    // volcano-scheduler looks at a Pending PodGroup again at its next session (every 1s).
    m_ctx.wake_at(ObjectKey{m_ctx.vcjobs, ns, name}, m_ctx.now() + std::chrono::seconds(1));
    if (update) update(status);
    return write(status);
  }
  Counts c;
  std::map<std::string, std::shared_ptr<const json>> by_name;
  for (const auto& p : pods) by_name[meta_name(*p)] = p;
  for (const auto& t : job["spec"]["tasks"]) {
    const std::string tname = t.value("name", "");
    for (int i = 0; i < int_or(t, "replicas", 0); ++i) {
      const std::string pname = name + "-" + tname + "-" + std::to_string(i);
      auto it = by_name.find(pname);
      if (it == by_name.end()) {
        // job_controller_actions.go syncJob: FailedCreate, "Error creating pods: %+v" of the errors.
        json created = m_ctx.create_pod(job, make_pod(job, t, i), "FailedCreate", "Error creating pods: [",
                                        "vc-controller-manager");
        if (!created.is_null()) c.add(created);
        continue;
      }
      const json& p = *it->second;
      by_name.erase(it);
      if (terminating(p)) {
        ++c.terminating;
        continue;
      }
      c.add(p);
    }
  }
  for (const auto& [pname, p] : by_name) {  // pods past the replica count
    try {
      m_ctx.store.remove(*m_ctx.pods, ns, pname);
      ++c.terminating;
    } catch (const StatusError&) {
    }
  }
  c.write(status);
  status["minAvailable"] = job["spec"]["minAvailable"];
  if (update) update(status);
  write(status);
}

void VolcanoCommandController::reconcile(const std::string& ns, const std::string& name) {
  auto cmd = m_ctx.store.get_shared(*m_ctx.commands, ns, name);
  if (!cmd) return;
  const json target = cmd->value("target", json::object());
  if (!target.is_object() || target.value("kind", "") != "Job" ||
      target.value("apiVersion", "").rfind("batch.volcano.sh/", 0) != 0 || !m_ctx.vcjobs)
    return;
  try {
    m_ctx.store.remove(*m_ctx.commands, ns, name);
  } catch (const StatusError&) {
    return;  // taken already
  }
  const std::string job_name = target.value("name", ""), action = cmd->value("action", "");
  if (auto job = m_ctx.store.get_shared(*m_ctx.vcjobs, ns, job_name))
    m_ctx.record_event(
        *job, "Normal", "CommandIssued",
        "Start to execute command " + action + ", and clean it up to make sure executed not more than once.",
        "vc-controller-manager");
  m_ctx.volcano_commands[ns + "/" + job_name] = action;
  m_ctx.wake_at(ObjectKey{m_ctx.vcjobs, ns, job_name}, m_ctx.now());
}

void VolcanoQueueController::reconcile(const std::string&, const std::string& name) {
  m_ctx.patch(*m_ctx.queues, "", name, [](json& q) {
    if (!q.contains("status") || !q["status"].is_object()) q["status"] = json::object();
    if (q["status"].value("state", "").empty()) q["status"]["state"] = "Open";
  });
}

}  // namespace kubesim
