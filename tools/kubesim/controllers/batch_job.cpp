// batch/v1 Job: pods, completions and status like kube-controller-manager's job controller.
#include "kubesim/controllers/batch_job.h"

#include <set>

#include "kubesim/controllers/pod_status.h"
#include "kubesim/controllers/run_policy.h"

namespace kubesim {

namespace {

int completion_index(const json& pod) {
  const std::string v = annotation(pod, "batch.kubernetes.io/job-completion-index");
  if (v.empty()) return -1;
  try {
    return std::stoi(v);
  } catch (...) {
    return -1;
  }
}

}  // namespace

std::string format_indexes(const std::vector<int>& sorted) {
  std::string out;
  for (size_t i = 0; i < sorted.size();) {
    size_t j = i;
    while (j + 1 < sorted.size() && sorted[j + 1] == sorted[j] + 1) ++j;
    if (!out.empty()) out += ",";
    out += std::to_string(sorted[i]);
    if (j > i) out += "-" + std::to_string(sorted[j]);
    i = j + 1;
  }
  return out;
}

void BatchJobController::create_pod(const json& job, int index) {
  const json tmpl = job["spec"].value("template", json::object());
  json meta = tmpl.value("metadata", json::object());
  json labels = meta.value("labels", json::object());
  const std::string uid = meta_uid(job), jname = meta_name(job);
  const int minor = m_ctx.options.kubernetes_minor;
  // kube-apiserver's Job defaulting put these on the template; a template written before the
  // defaulting (a Job created with --no-controllers) gets them here.
  if (minor >= 27) {  // kubernetes/kubernetes#114930 (1.27): prefixed labels beside the legacy ones
    labels["batch.kubernetes.io/controller-uid"] = uid;
    labels["batch.kubernetes.io/job-name"] = jname;
  }
  labels["controller-uid"] = uid;
  labels["job-name"] = jname;
  json spec = tmpl.value("spec", json::object());
  std::string prefix = jname + "-";
  if (index >= 0) {
    const std::string idx = std::to_string(index);
    // The annotation exists since Indexed Jobs (KEP-2214, 1.21); the pod label since the
    // PodIndexLabel feature gate, beta and on by default in 1.28.
    if (minor >= 28) labels["batch.kubernetes.io/job-completion-index"] = idx;
    if (!meta.contains("annotations")) meta["annotations"] = json::object();
    meta["annotations"]["batch.kubernetes.io/job-completion-index"] = idx;
    prefix = jname + "-" + idx + "-";
    spec["hostname"] = jname + "-" + idx;
    if (spec.contains("containers"))
      for (auto& c : spec["containers"]) {
        if (!c.contains("env") || !c["env"].is_array()) c["env"] = json::array();
        c["env"].push_back(
            {{"name", "JOB_COMPLETION_INDEX"},
             {"valueFrom",
              {{"fieldRef",
                {{"apiVersion", "v1"},
                 {"fieldPath", "metadata.annotations['batch.kubernetes.io/job-completion-index']"}}}}}});
      }
  }
  meta["labels"] = labels;
  meta["namespace"] = meta_ns(job);
  meta["ownerReferences"] = json::array({owner_reference(job)});
  meta.erase("creationTimestamp");
  inherit_sim_annotations(job, meta);
  for (int attempt = 0; attempt < 5; ++attempt) {
    meta["name"] = prefix + m_ctx.random_suffix();
    if (m_ctx.store.get_shared(*m_ctx.pods, meta_ns(job), meta["name"])) continue;
    // kube-controller-manager's job controller: FailedCreate, "Error creating: %v".
    if (m_ctx
            .create_pod(job, {{"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", meta}, {"spec", spec}},
                        "FailedCreate", "Error creating: ", "job-controller")
            .is_null())
      return;
    m_ctx.record_event(job, "Normal", "SuccessfulCreate", "Created pod: " + meta["name"].get<std::string>(),
                       "job-controller");
    return;
  }
}

void BatchJobController::finish(const json& job, json status, const std::string& type,
                                const std::string& reason, const std::string& message) {
  const std::string now = m_ctx.now_str();
  if (!status.contains("conditions")) status["conditions"] = json::array();
  json c = {{"type", type}, {"status", "True"}, {"lastProbeTime", now}, {"lastTransitionTime", now}};
  if (!reason.empty()) c["reason"] = reason;
  if (!message.empty()) c["message"] = message;
  status["conditions"].push_back(c);
  if (type == "Complete") {
    status["completionTime"] = now;
    m_ctx.record_event(job, "Normal", "Completed", "Job completed", "job-controller");
  } else {
    m_ctx.record_event(job, "Warning", reason, message, "job-controller");
  }
  m_ctx.patch(*m_ctx.jobs, meta_ns(job), meta_name(job), [&](json& obj) { obj["status"] = status; });
}

// job_controller.go syncJob with spec.suspend (Kueue's webhook sets it on a queued Job):
// active pods deleted, condition Suspended True (JobSuspended, "Job suspended"), no
// startTime; once resumed Suspended False (JobResumed, "Job resumed") and a new startTime.
bool BatchJobController::hold_suspended(const json& job, const ObjectList& pods, json& status) {
  const bool suspended = job["spec"].value("suspend", false);
  const std::string now = m_ctx.now_str();
  json conditions = status.value("conditions", json::array());
  bool was = false;
  for (auto& c : conditions) {
    if (c.value("type", "") != "Suspended") continue;
    was = c.value("status", "") == "True";
    if (!suspended && was)
      c = {{"type", "Suspended"}, {"status", "False"}, {"reason", "JobResumed"}, {"message", "Job resumed"},
           {"lastProbeTime", now}, {"lastTransitionTime", now}};
  }
  if (!suspended) {
    if (was) {
      status["conditions"] = conditions;
      status.erase("startTime");
    }
    return false;
  }
  for (const auto& p : pods)
    if (!pod_terminal(*p)) {
      try {
        m_ctx.store.remove(*m_ctx.pods, meta_ns(job), meta_name(*p));
      } catch (const StatusError&) {
      }
    }
  if (!was) {
    json out = json::array();
    for (const auto& c : conditions)
      if (c.value("type", "") != "Suspended") out.push_back(c);
    out.push_back({{"type", "Suspended"}, {"status", "True"}, {"reason", "JobSuspended"}, {"message", "Job suspended"},
                   {"lastProbeTime", now}, {"lastTransitionTime", now}});
    status["conditions"] = out;
  }
  status.erase("startTime");
  status["active"] = 0;
  status["ready"] = 0;
  m_ctx.patch(*m_ctx.jobs, meta_ns(job), meta_name(job), [&](json& obj) { obj["status"] = status; });
  return true;
}

void BatchJobController::reconcile(const std::string& ns, const std::string& name) {
  auto ptr = m_ctx.store.get_shared(*m_ctx.jobs, ns, name);
  if (!ptr) return;
  json job = *ptr;
  if (!job.contains("spec") || !job["spec"].is_object()) return;
  json& spec = job["spec"];
  const std::string uid = meta_uid(job);
  // API-server defaulting of the selector and template labels.
  if (!spec.contains("selector")) {
    // pkg/registry/batch/job/strategy.go generateSelector: from 1.27 the selector uses the
    // prefixed controller-uid label (kubernetes/kubernetes#114930), before it the legacy one.
    const bool prefixed = m_ctx.options.kubernetes_minor >= 27;
    m_ctx.patch(*m_ctx.jobs, ns, name, [&](json& obj) {
      obj["spec"]["selector"] = {
          {"matchLabels", {{prefixed ? "batch.kubernetes.io/controller-uid" : "controller-uid", uid}}}};
      json& l = obj["spec"]["template"]["metadata"]["labels"];
      if (!l.is_object()) l = json::object();
      if (prefixed) {
        l["batch.kubernetes.io/controller-uid"] = uid;
        l["batch.kubernetes.io/job-name"] = name;
      }
      l["controller-uid"] = uid;
      l["job-name"] = name;
    });
    return;  // the change re-queues this job
  }
  if (condition_true(job, "Complete") || condition_true(job, "Failed")) {
    if (spec.contains("ttlSecondsAfterFinished")) {
      // ttlafterfinished_controller.go jobFinishTime: the Complete or Failed condition's time.
      // Without one the controller errors and the Job stays (no fallback on completionTime).
      const std::string last = trainctl::object::true_since(job["status"].value("conditions", json::array()),
                                                            {"Complete", "Failed"});
      if (last.empty()) return;
      const TimePoint expiry =
          parse_time(last) + std::chrono::seconds(int_or(spec, "ttlSecondsAfterFinished", 0));
      if (m_ctx.now() >= expiry) {
        // As the TTL-after-finished controller: in the foreground, the pods first
        // (pkg/controller/ttlafterfinished/ttlafterfinished_controller.go).
        DeleteOptions o;
        o.propagation = "Foreground";
        o.precondition_uid = meta_uid(job);
        m_ctx.store.remove(*m_ctx.jobs, ns, name, o);
      } else {
        m_ctx.wake_at(ObjectKey{m_ctx.jobs, ns, name}, expiry);
      }
    }
    return;
  }
  const bool indexed = spec.value("completionMode", "NonIndexed") == "Indexed";
  const int64_t parallelism = int_or(spec, "parallelism", 1);
  const bool has_completions = spec.contains("completions") && !spec["completions"].is_null();
  const int64_t completions = has_completions ? int_or(spec, "completions", 1) : 1;
  const int64_t backoff_limit = int_or(spec, "backoffLimit", 6);
  const ObjectList pods = m_ctx.children(*m_ctx.pods, job);

  json status = job.value("status", json::object());
  if (hold_suspended(job, pods, status)) return;
  if (!status.contains("startTime")) status["startTime"] = m_ctx.now_str();
  int64_t active = 0, ready = 0, succeeded = 0, failed = 0;
  std::set<int> done_indexes, active_indexes;
  for (const auto& p : pods) {
    const std::string phase = phase_of(*p);
    if (phase == "Succeeded") {
      ++succeeded;
      if (indexed) done_indexes.insert(completion_index(*p));
    } else if (phase == "Failed") {
      ++failed;
    } else {
      ++active;
      if (indexed) active_indexes.insert(completion_index(*p));
      if (condition_true(*p, "Ready")) ++ready;
    }
  }
  const int64_t complete_count = indexed ? static_cast<int64_t>(done_indexes.size()) : succeeded;
  status["active"] = active;
  status["ready"] = ready;
  status["succeeded"] = succeeded;
  status["failed"] = failed;
  status["terminating"] = 0;
  status["uncountedTerminatedPods"] = json::object();
  if (indexed) {
    status["completedIndexes"] = format_indexes(std::vector<int>(done_indexes.begin(), done_indexes.end()));
    if (status["completedIndexes"] == "") status.erase("completedIndexes");
  }
  auto delete_active = [&] {
    for (const auto& p : pods)
      if (!pod_terminal(*p)) {
        try {
          m_ctx.store.remove(*m_ctx.pods, ns, meta_name(*p));
        } catch (const StatusError&) {
        }
      }
  };
  // kubernetes pkg/controller/job/job_controller.go: more failed pods than backoffLimit, or
  // (pastBackoffLimitOnFailure, template restartPolicy OnFailure) container restarts of the
  // Pending/Running pods reaching it (any restart when the limit is 0).
  int64_t restarts = 0;
  if (spec["template"].value("spec", json::object()).value("restartPolicy", "") == "OnFailure")
    for (const auto& p : pods) {
      const std::string ph = phase_of(*p);
      if (ph != "Running" && ph != "Pending" && !ph.empty()) continue;
      const json st = p->value("status", json::object());
      for (const char* list : {"initContainerStatuses", "containerStatuses"})
        for (const auto& cs : st.value(list, json::array())) restarts += cs.value("restartCount", 0);
    }
  const bool past_on_failure = backoff_limit == 0 ? restarts > 0 : restarts >= backoff_limit;
  if (failed > backoff_limit || past_on_failure) {
    delete_active();
    status["active"] = 0;
    status["ready"] = 0;
    finish(job, status, "Failed", "BackoffLimitExceeded", "Job has reached the specified backoff limit");
    return;
  }
  if (spec.contains("activeDeadlineSeconds")) {
    const TimePoint end =
        parse_time(status["startTime"]) + std::chrono::seconds(int_or(spec, "activeDeadlineSeconds", 0));
    if (m_ctx.now() >= end) {
      delete_active();
      status["active"] = 0;
      status["ready"] = 0;
      finish(job, status, "Failed", "DeadlineExceeded", "Job was active longer than specified deadline");
      return;
    }
    m_ctx.wake_at(ObjectKey{m_ctx.jobs, ns, name}, end);
  }
  if (complete_count >= completions || (!has_completions && succeeded > 0 && active == 0)) {
    finish(job, status, "Complete", "", "");
    return;
  }
  // Start more pods up to parallelism.
  int64_t want = std::min<int64_t>(parallelism, completions - complete_count) - active;
  if (indexed) {
    for (int i = 0; i < completions && want > 0; ++i) {
      if (done_indexes.count(i) || active_indexes.count(i)) continue;
      create_pod(job, i);
      --want;
    }
  } else {
    for (; want > 0; --want) create_pod(job, -1);
  }
  m_ctx.patch(*m_ctx.jobs, ns, name, [&](json& obj) { obj["status"] = status; });
}

}  // namespace kubesim
