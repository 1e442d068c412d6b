// The JobSet controller's reconcile (see jobset.h; kubernetes-sigs/jobset v0.12.0
// pkg/controllers/jobset_controller.go Reconcile, reconcile, getChildJobs,
// calculateReplicatedJobStatuses, reconcileReplicatedJobs, createHeadlessSvcIfNecessary,
// suspendJobs, resumeJobsIfNecessary, resumeJob; ttl_after_finished.go).
#include "kubesim/controllers/jobset.h"

#include <algorithm>
#include <set>

#include "core/log.h"
#include "kubesim/controllers/jobset_run.h"

namespace kubesim {

namespace {

bool job_suspended(const json& job) { return job.value("spec", json::object()).value("suspend", false); }

void bucket_jobs(JobSetRun& run, const std::vector<std::shared_ptr<const json>>& jobs) {
  for (const auto& j : jobs) {
    int64_t attempt = 0;
    try {
      attempt = std::stoll(label(*j, kRestartsKey));
    } catch (...) {
      run.previous.push_back(j);
      continue;
    }
    if (attempt < run.restarts()) run.previous.push_back(j);
    else if (condition_true(*j, "Failed")) run.failed.push_back(j);
    else if (condition_true(*j, "Complete")) run.successful.push_back(j);
    else run.active.push_back(j);
  }
}

void compute_statuses(JobSetRun& run) {
  std::map<std::string, std::map<std::string, int64_t>> counts;
  for (const auto& rj : run.spec().value("replicatedJobs", json::array()))
    counts[rj.value("name", "")] = {{"ready", 0}, {"succeeded", 0}, {"failed", 0}, {"active", 0}, {"suspended", 0}};
  auto entry = [&](const json& job) -> std::map<std::string, int64_t>* {
    auto it = counts.find(label(job, kReplicatedJobNameKey));
    return it == counts.end() ? nullptr : &it->second;
  };
  for (const auto& j : run.active) {
    auto* c = entry(*j);
    if (!c) continue;
    const json spec = j->value("spec", json::object()), st = j->value("status", json::object());
    int64_t pods = int_or(spec, "parallelism", 1);
    if (spec.contains("completions") && spec["completions"].is_number()) pods = std::min(pods, int_or(spec, "completions", 1));
    if (st.value("succeeded", 0) + st.value("ready", 0) >= pods) ++(*c)["ready"];
    if (st.value("active", 0) > 0) ++(*c)["active"];
    if (job_suspended(*j)) ++(*c)["suspended"];
  }
  for (const auto& j : run.successful)
    if (auto* c = entry(*j)) ++(*c)["succeeded"];
  for (const auto& j : run.failed)
    if (auto* c = entry(*j)) ++(*c)["failed"];
  run.statuses = json::array();
  for (auto it = counts.rbegin(); it != counts.rend(); ++it) {  // by name, descending
    json s = {{"name", it->first}};
    for (const auto& [k, v] : it->second) s[k] = v;
    run.statuses.push_back(std::move(s));
  }
  json stored = run.status().value("replicatedJobsStatus", json::array());
  std::sort(stored.begin(), stored.end(),
            [](const json& a, const json& b) { return a.value("name", "") > b.value("name", ""); });
  if (stored != run.statuses) {
    run.status()["replicatedJobsStatus"] = run.statuses;
    run.update = true;
  }
}

void delete_jobs(Context& ctx, const TrainerTypes& t, const std::vector<std::shared_ptr<const json>>& jobs) {
  for (const auto& j : jobs) {
    if ((*j)["metadata"].contains("deletionTimestamp")) continue;
    DeleteOptions o;
    o.propagation = "Foreground";
    try {
      ctx.store.remove(*t.jobs, meta_ns(*j), meta_name(*j), o);
    } catch (const StatusError&) {
    }
  }
}

void headless_service(JobSetRun& run) {
  if (!run.spec().value("network", json::object()).value("enableDNSHostnames", false) || !run.t.services) return;
  const std::string name = jobset_subdomain(run.js), ns = meta_ns(run.js);
  if (run.ctx.store.get_shared(*run.t.services, ns, name)) return;
  json svc = owned_object("v1", "Service", run.js, {{"name", name}});
  // kube-apiserver's Service defaults (pkg/apis/core/v1/defaults.go, the IP allocator).
  svc["spec"] = {{"clusterIP", "None"},
                 {"clusterIPs", {"None"}},
                 {"type", "ClusterIP"},
                 {"sessionAffinity", "None"},
                 {"ipFamilies", {"IPv4"}},
                 {"ipFamilyPolicy", "SingleStack"},
                 {"internalTrafficPolicy", "Cluster"},
                 {"selector", {{kJobSetNameKey, meta_name(run.js)}}},
                 {"publishNotReadyAddresses", run.spec()["network"].value("publishNotReadyAddresses", true)}};
  try {
    run.ctx.create_if_absent(*run.t.services, std::move(svc));
  } catch (const StatusError& e) {
    run.ctx.record_event(run.js, "Warning", "HeadlessServiceCreationFailed", e.message, "jobset");
  }
}

bool in_order(const JobSetRun& run) {
  return run.spec().value("startupPolicy", json::object()).value("startupPolicyOrder", "") == "InOrder";
}

bool all_started(const JobSetRun& run, const json& rj) {
  const json* s = run.rjob_status(rj.value("name", ""));
  return s && int_or(rj, "replicas", 1) == s->value("failed", 0) + s->value("ready", 0) + s->value("succeeded", 0);
}

void create_jobs(JobSetRun& run) {
  std::set<std::string> existing;
  for (const auto* list : {&run.active, &run.successful, &run.failed, &run.previous})
    for (const auto& j : *list) existing.insert(meta_name(*j));
  const bool blocking = run.spec().value("failurePolicy", json::object()).value("restartStrategy", "") == "BlockingRecreate";
  for (const auto& rj : run.spec().value("replicatedJobs", json::array())) {
    if (!run.dependencies_reached(rj)) continue;
    if (!run.suspended() && in_order(run) && all_started(run, rj)) continue;
    if (!(blocking && !run.previous.empty()))
      for (int64_t i = 0; i < int_or(rj, "replicas", 1); ++i) {
        json job = jobset_construct_job(run.js, rj, i);
        if (existing.count(meta_name(job))) continue;
        // kube-apiserver's validation of the Job (pkg/apis/core/validation ValidatePodSpec): a
        // replicated job without containers (a runtimePatch naming one the runtime lacks).
        if (job["spec"]["template"].value("spec", json::object()).value("containers", json::array()).empty()) {
          run.ctx.record_event(run.js, "Warning", "JobCreationFailed",
                               "job \"" + meta_name(job) + "\" creation failed with error: Job.batch \"" +
                                   meta_name(job) + "\" is invalid: spec.template.spec.containers: Required value",
                               "jobset");
          return;
        }
        job["metadata"]["ownerReferences"] = json::array({owner_reference(run.js)});
        try {
          run.ctx.create_if_absent(*run.t.jobs, std::move(job));
        } catch (const StatusError& e) {
          run.ctx.record_event(run.js, "Warning", "JobCreationFailed",
                               "job \"" + meta_name(run.js) + "-" + rj.value("name", "") + "-" + std::to_string(i) +
                                   "\" creation failed with error: " + e.message,
                               "jobset");
          return;
        }
      }
    if (!run.suspended() && in_order(run)) {
      run.set_condition("StartupPolicyInProgress", true, "InOrderStartupPolicyInProgress",
                        "in order startup policy is in progress", "Normal");
      return;
    }
  }
  if (!run.suspended() && in_order(run))
    run.set_condition("StartupPolicyCompleted", true, "InOrderStartupPolicyCompleted",
                      "in order startup policy has completed", "Normal");
}

// resumeJob: the pod template's Kueue-mutable fields merged into the Job, then unsuspended.
void resume_job(JobSetRun& run, const json& job, const json& rjob) {
  const json pod = rjob.value("template", json::object()).value("spec", json::object()).value("template", json::object());
  run.ctx.patch(*run.t.jobs, meta_ns(job), meta_name(job), [&](json& j) {
    if (j.contains("status")) j["status"].erase("startTime");
    json& tmpl = j["spec"]["template"];
    for (const char* k : {"labels", "annotations"}) {
      const json values = pod.value("metadata", json::object()).value(k, json::object());
      for (const auto& [key, v] : values.items()) tmpl["metadata"][k][key] = v;
    }
    const json selector = pod.value("spec", json::object()).value("nodeSelector", json::object());
    for (const auto& [key, v] : selector.items()) tmpl["spec"]["nodeSelector"][key] = v;
    for (const char* k : {"tolerations", "schedulingGates"})
      for (const auto& v : pod.value("spec", json::object()).value(k, json::array())) {
        json& list = tmpl["spec"][k];
        if (!list.is_array()) list = json::array();
        if (std::find(list.begin(), list.end(), v) == list.end()) list.push_back(v);
      }
    j["spec"]["suspend"] = false;
  });
}

void suspend_or_resume(JobSetRun& run) {
  if (run.suspended()) {
    for (const auto& j : run.active)
      if (!job_suspended(*j))
        run.ctx.patch(*run.t.jobs, meta_ns(*j), meta_name(*j), [](json& o) { o["spec"]["suspend"] = true; });
    run.set_condition("Suspended", true, "SuspendedJobs", "jobset is suspended", "Normal");
    run.set_restarting_false("JobSetSuspended", "jobset is suspended");
    return;
  }
  for (const auto& rj : run.spec().value("replicatedJobs", json::array())) {
    if (!run.dependencies_reached(rj)) continue;
    if (in_order(run) && all_started(run, rj)) continue;
    for (const auto& j : run.active)
      if (label(*j, kReplicatedJobNameKey) == rj.value("name", "") && job_suspended(*j)) resume_job(run, *j, rj);
    if (in_order(run)) {
      run.set_condition("StartupPolicyInProgress", true, "InOrderStartupPolicyInProgress",
                        "in order startup policy is in progress", "Normal");
      return;
    }
  }
  run.set_condition("Suspended", false, "ResumeJobs", "jobset is resumed", "Normal");
}

// ttl_after_finished.go: a finished JobSet is deleted (foreground) ttlSecondsAfterFinished after
// its Completed or Failed condition.
void ttl_after_finished(JobSetRun& run, const ObjectKey& key) {
  if (!run.spec().contains("ttlSecondsAfterFinished")) return;
  const std::string at =
      trainctl::object::true_since(run.status().value("conditions", json::array()), {"Completed", "Failed"});
  const TimePoint expiry = parse_time(at) + std::chrono::seconds(int_or(run.spec(), "ttlSecondsAfterFinished", 0));
  if (run.ctx.now() < expiry) {
    run.ctx.wake_at(key, expiry);
    return;
  }
  DeleteOptions o;
  o.propagation = "Foreground";
  o.precondition_uid = meta_uid(run.js);
  run.ctx.store.remove(*key.rt, key.ns, key.name, o);
}

void persist(JobSetRun& run, const std::string& ns, const std::string& name) {
  if (!run.update) return;
  json status = run.status();
  if (!status.contains("restarts")) status["restarts"] = 0;  // not omitempty in JobSetStatus
  const bool written =
      run.ctx.patch(*run.t.jobsets, ns, name, [&](json& obj) { obj["status"] = status; });
  if (!written) return;
  for (const auto& [type, reason, message] : run.events) run.ctx.record_event(run.js, type, reason, message, "jobset");
}

}  // namespace

void JobSetController::reconcile(const std::string& ns, const std::string& name) {
  auto ptr = m_ctx.store.get_shared(*primary(), ns, name);
  if (!ptr || !m_t.jobs) return;
  json js = *ptr;
  if (!js.contains("spec") || !js["spec"].is_object()) return;
  default_jobset_spec(js["spec"]);  // a JobSet written without the webhook (seed files, tests)
  const std::string manager = js["spec"].value("managedBy", kJobSetController);
  if (manager != kJobSetController) return;
  if (!js["status"].is_object()) js["status"] = json::object();
  JobSetRun run(m_ctx, m_t, std::move(js));
  bucket_jobs(run, m_ctx.children(*m_t.jobs, run.js));
  compute_statuses(run);
  if (run.finished()) {
    delete_jobs(m_ctx, m_t, run.active);
    persist(run, ns, name);
    ttl_after_finished(run, ObjectKey{primary(), ns, name});
    return;
  }
  delete_jobs(m_ctx, m_t, run.previous);
  if (!run.suspended()) {
    int64_t total = 0, ready = 0;
    for (const auto& rj : run.spec().value("replicatedJobs", json::array())) total += int_or(rj, "replicas", 1);
    for (const auto& s : run.statuses) ready += s.value("ready", 0) + s.value("succeeded", 0);
    if (total == ready) run.set_restarting_false("JobsReady", "all jobs are ready");
  }
  if (!run.failed.empty()) {
    run.execute_failure_policy();
    persist(run, ns, name);
    return;
  }
  if (!run.successful.empty() && run.execute_success_policy()) {
    persist(run, ns, name);
    return;
  }
  headless_service(run);
  create_jobs(run);
  suspend_or_resume(run);
  persist(run, ns, name);
}

}  // namespace kubesim
