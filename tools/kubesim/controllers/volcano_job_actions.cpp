// Volcano Job's actions, as volcano-sh/volcano@v1.15.1:pkg/controllers/job/job_controller_actions.go
// holds them: initiateJob (initiate_job), killJob / killTarget (kill) through killPods
// (kill_pods), syncJob with createOrUpdatePodGroup (sync_job), and the status update with
// appendJobCondition (write_status). The state machine that calls them: volcano_job.cpp.
#include <cctype>
#include <map>

#include "kubesim/controllers/pod_status.h"
#include "kubesim/controllers/run_policy.h"
#include "kubesim/controllers/volcano_job.h"
#include "kubesim/controllers/volcano_policy.h"

namespace kubesim {

namespace {

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
struct PodCounts {
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

// initiateJob / initJobStatus (job_controller_actions.go): phase Pending and minAvailable on
// a new job; the svc plugin's OnJobAdd, once (status.controlledResources["plugin-svc"]).
void VolcanoJobController::initiate_job(Run& r) {
  if (r.phase.empty()) {
    r.phase = "Pending";
    r.status["state"]["phase"] = "Pending";
    r.status["minAvailable"] = r.job["spec"]["minAvailable"];
  }
  if (r.job["spec"].value("plugins", json::object()).contains("svc") &&
      r.status.value("controlledResources", json::object()).value("plugin-svc", "") != "svc") {
    if (m_ctx.configmaps) m_ctx.create_if_absent(*m_ctx.configmaps, make_svc_config_map(r.job));
    if (m_ctx.services) m_ctx.create_if_absent(*m_ctx.services, make_service(r.job));
    r.status["controlledResources"]["plugin-svc"] = "svc";
  }
  r.job["status"] = r.status;
}

// killJob / killTarget: the pods are deleted (kill_pods); the status counts hold only pods
// that could not be deleted (none here). Always true: the state's Execute returns it.
bool VolcanoJobController::kill(Run& r, bool soft, const std::string& task, const std::string& pod,
                                const UpdateStatus& update) {
  const int64_t killed = kill_pods(r.job, r.pods, soft, task, pod);
  json st = r.status;
  PodCounts c;
  for (const auto& p : r.pods)
    if (terminating(*p)) ++c.terminating;
  c.terminating += killed;
  c.write(st);
  if (update) update(st);
  // killJob bumps the version at every call; kubesim, which reconciles on every write,
  // only when the call changed something (or it would never stop).
  if (task.empty() && (killed > 0 || st["state"] != r.status["state"] ||
                       st.value("retryCount", 0) != r.status.value("retryCount", 0)))
    st["version"] = int_or(st, "version", 0) + 1;
  write_status(r, std::move(st));
  return true;
}

// syncJob (job_controller_actions.go): createOrUpdatePodGroup, then the pods only once the
// PodGroup has left Pending (syncTask); missing pods are created, those past the replica
// count deleted, and the status counts them.
void VolcanoJobController::sync_job(Run& r, const UpdateStatus& update) {
  const bool pg_existed = m_ctx.podgroups && m_ctx.store.get_shared(*m_ctx.podgroups, r.ns, r.pg_name);
  if (m_ctx.podgroups && !pg_existed) m_ctx.create_if_absent(*m_ctx.podgroups, make_pod_group(r.job));
  const std::string pg_phase = update_pod_group(m_ctx, r.job, r.pods, pg_existed);
  if (m_ctx.podgroups && (pg_phase.empty() || pg_phase == "Pending")) {
    // volcano-scheduler looks at a Pending PodGroup again at its next session (every 1s).
    m_ctx.wake_at(ObjectKey{m_ctx.vcjobs, r.ns, r.name}, m_ctx.now() + std::chrono::seconds(1));
    if (update) update(r.status);
    return write_status(r, r.status);
  }
  PodCounts c;
  std::map<std::string, std::shared_ptr<const json>> by_name;
  for (const auto& p : r.pods) by_name[meta_name(*p)] = p;
  for (const auto& t : r.job["spec"]["tasks"]) {
    const std::string tname = t.value("name", "");
    for (int i = 0; i < int_or(t, "replicas", 0); ++i) {
      const std::string pname = r.name + "-" + tname + "-" + std::to_string(i);
      auto it = by_name.find(pname);
      if (it == by_name.end()) {
        // syncJob: FailedCreate, "Error creating pods: %+v" of the errors.
        json created = m_ctx.create_pod(r.job, make_pod(r.job, t, i), "FailedCreate", "Error creating pods: [",
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
      m_ctx.store.remove(*m_ctx.pods, r.ns, pname);
      ++c.terminating;
    } catch (const StatusError&) {
    }
  }
  c.write(r.status);
  r.status["minAvailable"] = r.job["spec"]["minAvailable"];
  if (update) update(r.status);
  write_status(r, r.status);
}

// UpdateStatus when the status changed: a change stamps state.lastTransitionTime and moves
// the condition of the current phase to the end (appendJobCondition).
void VolcanoJobController::write_status(const Run& r, json st) {
  if (st == r.old_status) return;
  st["state"]["lastTransitionTime"] = r.now;
  json conds = json::array();
  for (const auto& c : st.value("conditions", json::array()))
    if (c.value("status", "") != st["state"].value("phase", "")) conds.push_back(c);
  conds.push_back({{"status", st["state"].value("phase", "")}, {"lastTransitionTime", r.now}});
  st["conditions"] = conds;
  m_ctx.patch(*m_ctx.vcjobs, r.ns, r.name, [&](json& obj) { obj["status"] = st; });
}

}  // namespace kubesim
