// MPIJob v2beta1: the reconcile of mpi-operator v0.8.0, split as
// kubeflow/mpi-operator@v0.8.0:pkg/controller/mpi_job_controller.go splits it: syncHandler
// (reconcile), getLauncherJob, getOrCreateService, getOrCreateConfigMap, getOrCreateWorker,
// updateMPIJobStatus (update_status), updateMPIJobFailedStatus, cleanUpWorkerPods.
#include "kubesim/controllers/mpi_job.h"

#include <map>

#include "kubesim/controllers/job_conditions.h"
#include "kubesim/controllers/job_suspend.h"
#include "kubesim/controllers/kubeflow_replicas.h"
#include "kubesim/controllers/pod_status.h"
#include "kubesim/controllers/run_policy.h"

namespace kubesim {

namespace {

// The launcher Job follows the MPIJob's runPolicy.suspend (syncHandler: "align the suspension
// state of launcher with the MPIJob"; its pods go with the Job controller's suspend); a
// suspended MPIJob has its worker pods deleted (cleanUpWorkerPods), Suspended True (reason
// MPIJobSuspended, "MPIJob suspended") and Running False ("MPIJob NS/NAME is suspended.");
// once resumed, Suspended False (MPIJobResumed, "MPIJob resumed") and a new startTime
// (updateMPIJobStatus). Returns true when the MPIJob is suspended (the caller writes status).
bool hold_suspended_mpijob(Context& ctx, const json& job, json& status, const std::string& now) {
  const bool suspended = run_policy_suspended(job);
  const std::string ns = meta_ns(job), name = meta_name(job);
  if (auto launcher = ctx.store.get_shared(*ctx.jobs, ns, name + "-launcher");
      launcher && owned_by(*launcher, job) && (*launcher)["spec"].value("suspend", false) != suspended)
    ctx.patch(*ctx.jobs, ns, name + "-launcher", [&](json& l) {
      // Unsuspending: startTime cleared first (a status update), then spec.suspend false.
      if (!suspended && l.contains("status")) l["status"].erase("startTime");
      l["spec"]["suspend"] = suspended;
    });
  if (!suspended) {
    if (status_condition_true(status, "Suspended") &&
        set_condition_false(status, "Suspended", "MPIJobResumed", "MPIJob resumed", now))
      status["startTime"] = now;
    return false;
  }
  for (const auto& p : ctx.children(*ctx.pods, job)) {
    if (label(*p, "training.kubeflow.org/job-role") != "worker") continue;
    try {
      ctx.store.remove(*ctx.pods, ns, meta_name(*p));
    } catch (const StatusError&) {
    }
  }
  if (!status_condition_true(status, "Suspended"))
    update_job_condition(status, "Suspended", "MPIJobSuspended", "MPIJob suspended", now);
  if (status_condition_true(status, "Running"))
    set_condition_false(status, "Running", "MPIJobSuspended", "MPIJob " + ns + "/" + name + " is suspended.",
                        now);
  return true;
}

// updateMPIJobFailedStatus: the launcher Job's Failed condition becomes the MPIJob's, with the
// reason and message of the last failed launcher pod when the Job ran out of retries.
void update_failed_status(json& status, const json& launcher, const ObjectList& launcher_pods,
                          const std::string& id, const std::string& now) {
  const json& cond = trainctl::object::condition(launcher, "Failed");
  std::string reason = cond.value("reason", "");
  if (reason.empty()) reason = "MPIJobFailed";
  std::string msg = cond.value("message", "");
  if (msg.empty()) msg = "MPIJob " + id + " has failed";
  if (reason == "BackoffLimitExceeded") {  // reason and message of the last failed pod
    std::shared_ptr<const json> last;
    for (const auto& p : launcher_pods)
      if (phase_of(*p) == "Failed" && (!last || (*last)["metadata"].value("creationTimestamp", "") <
                                                    (*p)["metadata"].value("creationTimestamp", "")))
        last = p;
    if (last) {
      reason += "/" + last->value("status", json::object()).value("reason", "");
      msg += ": " + last->value("status", json::object()).value("message", "");
    }
  }
  if (!status.contains("completionTime")) status["completionTime"] = now;
  update_job_condition(status, "Failed", reason, msg, now);
}

bool is_worker(const json& pod) { return label(pod, "training.kubeflow.org/job-role") == "worker"; }

}  // namespace

// syncHandler: defaults on a copy, the Created condition, a finished job's clean-up, the
// suspension, then (unless the launcher Job has finished) the Service, the ConfigMap, the
// PodGroup, the workers and the launcher Job, and last updateMPIJobStatus.
void MpiJobController::reconcile(const std::string& ns, const std::string& name) {
  auto ptr = m_ctx.store.get_shared(*m_ctx.mpijobs, ns, name);
  if (!ptr || !ptr->contains("spec")) return;
  // syncHandler: scheme.Scheme.Default(mpiJob) on a copy.
  const json job = defaults(*ptr);
  const std::string now = m_ctx.now_str();
  json status = job.value("status", json::object());
  if (status.value("conditions", json::array()).empty())
    update_job_condition(status, "Created", "MPIJobCreated", "MPIJob " + ns + "/" + name + " is created.", now);
  auto write_status = [&] {
    m_ctx.patch(*m_ctx.mpijobs, ns, name, [&](json& obj) { obj["status"] = status; });
  };

  // A finished MPIJob (completionTime set) only has its workers cleaned up per cleanPodPolicy.
  // mpi-operator never deletes the MPIJob: ttlSecondsAfterFinished goes to the launcher Job.
  if (job_finished(json{{"status", status}}) && status.contains("completionTime")) {
    const std::string policy = job["spec"]["runPolicy"].value("cleanPodPolicy", "None");
    if (policy == "All" || policy == "Running") {  // isCleanUpPods, cleanUpWorkerPods
      clean_pods(m_ctx, job, m_ctx.children(*m_ctx.pods, job), false);
      json& rs = status["replicaStatuses"];
      if (!rs.is_object()) rs = json::object();
      if (!rs["Worker"].is_object()) rs["Worker"] = json::object();
      rs["Worker"].erase("active");
      write_status();
    }
    return;
  }
  if (hold_suspended_mpijob(m_ctx, job, status, now)) return write_status();
  if (!status.contains("startTime")) status["startTime"] = now;

  std::shared_ptr<const json> launcher = get_launcher_job(job);
  const bool done = launcher && (condition_true(*launcher, "Complete") || condition_true(*launcher, "Failed"));
  ObjectList workers;
  if (!done) {
    get_or_create_service(job);
    get_or_create_config_map(job);
    const std::string group = ensure_job_pod_group(m_ctx, job, worker_replicas(job) + 1);  // getOrCreatePodGroups
    workers = get_or_create_workers(job, group);
    if (!launcher) {
      int64_t ready = 0;  // countReadyWorkerPods
      for (const auto& w : workers)
        if (condition_true(*w, "Ready")) ++ready;
      if (job["spec"].value("launcherCreationPolicy", "AtStartup") == "AtStartup" ||
          ready == static_cast<int64_t>(workers.size()))
        launcher =
            std::make_shared<const json>(m_ctx.create_if_absent(*m_ctx.jobs, make_launcher_job(job, group)));
    }
  }
  update_status(job, launcher.get(), workers, status, now);
  write_status();
}

std::shared_ptr<const json> MpiJobController::get_launcher_job(const json& job) {
  auto launcher = m_ctx.store.get_shared(*m_ctx.jobs, meta_ns(job), meta_name(job) + "-launcher");
  if (launcher && !owned_by(*launcher, job)) launcher.reset();
  return launcher;
}

void MpiJobController::get_or_create_service(const json& job) {
  if (!m_ctx.services) return;
  const json want = make_service(job);  // selector and publishNotReadyAddresses kept in sync
  m_ctx.create_if_absent(*m_ctx.services, want);
  m_ctx.patch(*m_ctx.services, meta_ns(job), meta_name(job), [&](json& svc) {
    if (!owned_by(svc, job)) return;
    svc["spec"]["selector"] = want["spec"]["selector"];
    svc["spec"]["publishNotReadyAddresses"] = want["spec"]["publishNotReadyAddresses"];
  });
}

void MpiJobController::get_or_create_config_map(const json& job) {
  if (!m_ctx.configmaps) return;
  std::vector<std::string> running;  // getRunningWorkerPods
  for (const auto& p : m_ctx.children(*m_ctx.pods, job))
    if (is_worker(*p) && phase_of(*p) == "Running") running.push_back(meta_name(*p));
  const json cm = make_config_map(job, running);
  m_ctx.create_if_absent(*m_ctx.configmaps, cm);
  m_ctx.patch(*m_ctx.configmaps, meta_ns(job), meta_name(job) + "-config", [&](json& obj) {
    if (owned_by(obj, job)) obj["data"] = cm["data"];
  });
}

ObjectList MpiJobController::get_or_create_workers(const json& job, const std::string& group) {
  const std::string ns = meta_ns(job), name = meta_name(job);
  std::map<std::string, std::shared_ptr<const json>> by_name;
  for (const auto& p : m_ctx.children(*m_ctx.pods, job))
    if (is_worker(*p)) by_name[meta_name(*p)] = p;
  const int64_t count = worker_replicas(job);
  // When there are more worker pods than replicas, those whose index label is past the count
  // are deleted; missing ones are created.
  for (const auto& [pname, p] : by_name) {
    if (static_cast<int64_t>(by_name.size()) <= count) break;
    const auto index = int_or(json{{"i", label(*p, "training.kubeflow.org/replica-index")}}, "i", -1);
    if (index >= count) {
      try {
        m_ctx.store.remove(*m_ctx.pods, ns, pname);
      } catch (const StatusError&) {
      }
    }
  }
  ObjectList workers;
  for (int i = 0; i < count; ++i) {
    const std::string wname = name + "-worker-" + std::to_string(i);
    auto it = by_name.find(wname);
    if (it != by_name.end()) {
      workers.push_back(it->second);
      continue;
    }
    // getOrCreateWorker: MPIJobFailed, "worker pod created failed: %v".
    json created = m_ctx.create_pod(job, make_worker(job, i, group), "MPIJobFailed", "worker pod created failed: ",
                                    "mpi-job-controller");
    if (created.is_null()) continue;
    workers.push_back(std::make_shared<const json>(std::move(created)));
  }
  return workers;
}

void MpiJobController::update_status(const json& job, const json* launcher, const ObjectList& workers,
                                     json& status, const std::string& now) {
  const std::string id = meta_ns(job) + "/" + meta_name(job);
  json rs = status.value("replicaStatuses", json::object());
  int64_t launcher_running = 0;
  if (launcher) {
    const ObjectList lpods = m_ctx.children(*m_ctx.pods, *launcher);  // jobPods
    for (const auto& p : lpods)
      if (phase_of(*p) == "Running") ++launcher_running;
    json ls = json::object();  // initializeMPIJobStatuses: a fresh ReplicaStatus
    const int64_t lfailed = int_or(launcher->value("status", json::object()), "failed", 0);
    if (lfailed)
      ls["failed"] = lfailed;
    else
      ls.erase("failed");
    if (condition_true(*launcher, "Complete")) {
      ls["succeeded"] = 1;
      if (!status.contains("completionTime"))
        status["completionTime"] = launcher->value("status", json::object()).value("completionTime", now);
      update_job_condition(status, "Succeeded", "MPIJobSucceeded", "MPIJob " + id + " successfully completed.",
                           now);
    } else if (condition_true(*launcher, "Failed")) {
      update_failed_status(status, *launcher, lpods, id, now);
    } else {
      if (launcher_running)
        ls["active"] = launcher_running;
      else
        ls.erase("active");
    }
    rs["Launcher"] = ls;
  }
  json ws = json::object();
  int64_t running = 0, evicted = 0, failed = 0, succeeded = 0;
  for (const auto& w : workers) {
    const std::string ph = phase_of(*w);
    if (ph == "Failed") {
      ++failed;
      if (w->value("status", json::object()).value("reason", "") == "Evicted") ++evicted;
    } else if (ph == "Succeeded") {
      ++succeeded;
    } else if (ph == "Running") {
      ++running;
    }
  }
  if (failed) ws["failed"] = failed;
  if (succeeded) ws["succeeded"] = succeeded;
  if (running) ws["active"] = running;
  rs["Worker"] = ws;
  if (evicted > 0)
    update_job_condition(
        status, "Failed", "MPIJobEvicted",
        std::to_string(evicted) + "/" + std::to_string(workers.size()) + " workers are evicted", now);
  else if (launcher && launcher_running >= 1 && running == static_cast<int64_t>(workers.size()) &&
           !job_finished(json{{"status", status}}))
    update_job_condition(status, "Running", "MPIJobRunning", "MPIJob " + id + " is running.", now);
  status["replicaStatuses"] = rs;
}

}  // namespace kubesim
