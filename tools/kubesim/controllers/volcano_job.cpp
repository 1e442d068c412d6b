// Volcano Job: the state machine of volcano v1.15.1 (pkg/controllers/job/state/*.go) driven
// by the events of job_controller_handler.go and the policies of job_controller_util.go
// applyPolicies, split as volcano-sh/volcano@v1.15.1:pkg/controllers/job/job_controller_actions.go
// splits it: initiateJob (initiate_job), killJob / killTarget (kill), killPods (kill_pods),
// syncJob with createOrUpdatePodGroup (sync_job), and each state's Execute (execute).
//
// kubesim reconciles by level, not by event: a PodFailed event is a Failed pod of the
// current job version (status.version), a TaskCompleted event a task whose replicas all
// Succeeded with at least one pod of the current version. Not modelled: PodEvicted (a pod
// deleted by someone else), TaskFailed, PodPending with timeouts, policy timeouts (the action
// runs at once), dependsOn, partitions, networkTopology, job forwarding.
#include "kubesim/controllers/volcano_job.h"

#include <cctype>
#include <functional>
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

using UpdateStatus = VolcanoJobController::UpdateStatus;

// The UpdateStatusFn of the restarts (state/pending.go, running.go: RestartJob, RestartTask,
// RestartPod): retryCount + 1, phase Restarting.
void restarting(json& st) {
  st["retryCount"] = int_or(st, "retryCount", 0) + 1;
  st["state"]["phase"] = "Restarting";
}

// completing.go, aborting.go, terminating.go: the next phase once no pod is alive.
UpdateStatus when_no_pod_alive(const char* next) {
  return [next](json& st) {
    if (int_or(st, "terminating", 0) || int_or(st, "pending", 0) || int_or(st, "running", 0)) return;
    st["state"]["phase"] = next;
  };
}

// restartingState.restartingUpdateStatus (state/restarting.go).
void restarting_update(const json& job, json& st) {
  if (int_or(st, "retryCount", 0) >= int_or(job["spec"], "maxRetry", 3)) {
    st["state"]["phase"] = "Failed";
    return;
  }
  if (total_replicas(job) - int_or(st, "terminating", 0) >= int_or(st, "minAvailable", 0))
    st["state"]["phase"] = "Pending";
}

// The UpdateStatusFn each state gives SyncJob (pending.go, running.go, restarting.go).
UpdateStatus sync_update(const json& job, const std::string& phase) {
  if (phase == "Pending")
    return [&job](json& st) {
      if (int_or(job["spec"], "minAvailable", 0) <=
          int_or(st, "running", 0) + int_or(st, "succeeded", 0) + int_or(st, "failed", 0))
        st["state"]["phase"] = "Running";
    };
  if (phase == "Running") return [&job](json& st) { running_update(job, st); };
  if (phase == "Restarting") return [&job](json& st) { restarting_update(job, st); };
  return nullptr;
}

}  // namespace

// The controller's process of a job (job_controller.go processNextReq): a finished job is
// finishedState's, a job of a queue that does not exist waits, else the job is initiated and
// its state executes the action of a Command or of the policies (state/*.go Execute).
void VolcanoJobController::reconcile(const std::string& ns, const std::string& name) {
  auto ptr = m_ctx.store.get_shared(*m_ctx.vcjobs, ns, name);
  if (!ptr || !ptr->contains("spec")) return;
  Run r;
  r.ns = ns;
  r.name = name;
  r.now = m_ctx.now_str();
  r.job = defaults(*ptr);
  r.old_status = r.job.value("status", json::object());
  r.status = r.old_status;
  r.pods = m_ctx.children(*m_ctx.pods, r.job);
  r.pg_name = pod_group_name(r.job);
  if (!r.status.contains("state") || !r.status["state"].is_object()) r.status["state"] = json::object();
  r.phase = r.status["state"].value("phase", "");

  if (is_terminal_phase(r.phase)) return finished(r);
  // syncJob starts with GetQueueInfo: a job whose queue does not exist does not progress.
  if (m_ctx.queues && !m_ctx.store.get_shared(*m_ctx.queues, "", r.job["spec"].value("queue", "default")))
    return;
  initiate_job(r);
  // A Command's action, once, ahead of the policies (applyPolicies: req.Action wins).
  PolicyAction act;
  if (auto it = m_ctx.volcano_commands.find(ns + "/" + name); it != m_ctx.volcano_commands.end()) {
    act.action = it->second;
    m_ctx.volcano_commands.erase(it);
  } else {
    act = volcano_action(r.job, r.pods);
  }
  if (execute(r, act)) return;
  sync_job(r, sync_update(r.job, r.phase));
}

// finishedState (state/finished.go): what is left is killed, soft; ttlSecondsAfterFinished
// deletes the job (the garbage collector of pkg/controllers/garbagecollector).
void VolcanoJobController::finished(Run& r) {
  bool alive = false;
  for (const auto& p : r.pods) alive = alive || !pod_terminal(*p);
  if (alive || (m_ctx.podgroups && m_ctx.store.get_shared(*m_ctx.podgroups, r.ns, r.pg_name)))
    kill(r, true, "", "", nullptr);
  if (r.job["spec"].contains("ttlSecondsAfterFinished")) {
    const TimePoint expiry = parse_time(r.status["state"].value("lastTransitionTime", r.now)) +
                             std::chrono::seconds(int_or(r.job["spec"], "ttlSecondsAfterFinished", 0));
    if (m_ctx.now() >= expiry)
      m_ctx.store.remove(*m_ctx.vcjobs, r.ns, r.name);
    else
      m_ctx.wake_at(ObjectKey{m_ctx.vcjobs, r.ns, r.name}, expiry);
  }
}

// The state's Execute for an action other than SyncJob (state/pending.go, running.go,
// completing.go, aborting.go, aborted.go, terminating.go, restarting.go): killJob or
// killTarget with the state's UpdateStatusFn. False when the state syncs the job instead.
bool VolcanoJobController::execute(Run& r, const PolicyAction& act) {
  const std::string& phase = r.phase;
  if (phase == "Pending" || phase == "Running") {
    if (act.action == "RestartJob") return kill(r, false, "", "", restarting);
    if (act.action == "RestartTask") return kill(r, false, act.task, "", restarting);
    if (act.action == "RestartPod") return kill(r, false, act.task, act.pod, restarting);
    if (act.action == "AbortJob")
      return kill(r, true, "", "", [](json& st) { st["state"]["phase"] = "Aborting"; });
    if (act.action == "TerminateJob")
      return kill(r, true, "", "", [](json& st) { st["state"]["phase"] = "Terminating"; });
    if (act.action == "CompleteJob")
      return kill(r, true, "", "", [](json& st) { st["state"]["phase"] = "Completing"; });
  }
  if (phase == "Completing") return kill(r, true, "", "", when_no_pod_alive("Completed"));
  // aborting.go, aborted.go: ResumeJob restarts the job (Restarting, retryCount + 1); else an
  // Aborting job becomes Aborted once no pod is alive, an Aborted one only has pods killed.
  if ((phase == "Aborting" || phase == "Aborted") && act.action == "ResumeJob")
    return kill(r, true, "", "", restarting);
  if (phase == "Aborting") return kill(r, true, "", "", when_no_pod_alive("Aborted"));
  if (phase == "Aborted") return kill(r, true, "", "", nullptr);
  if (phase == "Terminating") return kill(r, true, "", "", when_no_pod_alive("Terminated"));
  if (phase == "Restarting" && act.action != "SyncJob") {
    const json& job = r.job;
    const UpdateStatus update = [&job](json& st) { restarting_update(job, st); };
    if (act.action == "RestartTask" || act.action == "RestartPod")
      return kill(r, false, act.task, act.action == "RestartPod" ? act.pod : "", update);
    return kill(r, false, "", "", update);
  }
  return false;
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
