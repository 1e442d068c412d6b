// PyTorchJob: pods, services and status like kubeflow/training-operator v1.9.0.
#include "kubesim/controllers/pytorch_job.h"

#include <algorithm>

#include "core/text.h"
#include "kubesim/controllers/job_conditions.h"
#include "kubesim/controllers/pod_status.h"
#include "kubesim/controllers/pytorch_env.h"
#include "kubesim/controllers/run_policy.h"

namespace kubesim {

using trainctl::ascii_lower;

namespace {

const json& replica_specs(const json& job) {
  static const json empty = json::object();
  auto spec = job.find("spec");
  if (spec == job.end()) return empty;
  auto it = spec->find("pytorchReplicaSpecs");
  return it != spec->end() && it->is_object() ? *it : empty;
}

int64_t replicas_of(const json& rs) { return int_or(rs, "replicas", 1); }

// Replica types in the operator's order: Master first.
std::vector<std::string> replica_types(const json& job) {
  std::vector<std::string> out;
  const json& specs = replica_specs(job);
  if (specs.contains("Master")) out.push_back("Master");
  for (auto it = specs.begin(); it != specs.end(); ++it)
    if (it.key() != "Master") out.push_back(it.key());
  return out;
}

json base_labels(const json& job) {
  return {{"training.kubeflow.org/operator-name", "pytorchjob-controller"},
          {"training.kubeflow.org/job-name", meta_name(job)}};
}

bool retryable(int code) { return code >= 128; }

int exit_code(const json& pod) {
  for (const auto& cs : pod.value("status", json::object()).value("containerStatuses", json::array())) {
    const auto& st = cs.value("state", json::object());
    if (st.contains("terminated")) {
      const int code = static_cast<int>(int_or(st["terminated"], "exitCode", 0));
      if (code != 0) return code;
    }
  }
  return 0;
}

}  // namespace

std::string ensure_job_pod_group(Context& ctx, const json& job, int64_t total_replicas) {
  const auto& spec = job.value("spec", json::object());
  const auto& rp = spec.value("runPolicy", json::object());
  if (!rp.contains("schedulingPolicy") || !ctx.podgroups) return "";
  const auto& sp = rp["schedulingPolicy"];
  json pg = owned_object("scheduling.volcano.sh/v1beta1", "PodGroup", job, {{"name", meta_name(job)}});
  pg["spec"] = {{"minMember", int_or(sp, "minAvailable", total_replicas)},
                {"queue", sp.value("queue", "default")}};
  pg["status"] = {{"phase", "Pending"}};
  if (sp.contains("priorityClass")) pg["spec"]["priorityClassName"] = sp["priorityClass"];
  if (sp.contains("minResources")) pg["spec"]["minResources"] = sp["minResources"];
  ctx.create_if_absent(*ctx.podgroups, pg);
  return meta_name(job);
}

json PyTorchJobController::make_pod(const json& job, const std::string& rtype, int index) {
  const json& rs = replica_specs(job)[rtype];
  const json tmpl = rs.value("template", json::object());
  const std::string rt = ascii_lower(rtype);
  const std::string name = meta_name(job) + "-" + rt + "-" + std::to_string(index);
  json meta = tmpl.value("metadata", json::object());
  json labels = meta.value("labels", json::object());
  const json base = base_labels(job);
  for (auto it = base.begin(); it != base.end(); ++it) labels[it.key()] = *it;
  labels["training.kubeflow.org/replica-type"] = rt;
  labels["training.kubeflow.org/replica-index"] = std::to_string(index);
  if (rtype == "Master") labels["training.kubeflow.org/job-role"] = "master";
  meta["labels"] = labels;
  meta["name"] = name;
  meta["namespace"] = meta_ns(job);
  meta["ownerReferences"] = json::array({owner_reference(job)});
  meta.erase("creationTimestamp");
  inherit_sim_annotations(job, meta);

  json spec = tmpl.value("spec", json::object());
  const std::string policy = rs.value("restartPolicy", "OnFailure");
  spec["restartPolicy"] = policy == "ExitCode" ? "Never" : policy;

  // envvar.go setPodEnv, initcontainer.go setInitContainer (on the defaulted job).
  if (!set_pytorch_pod_env(job, spec, rt, index)) return json();  // "port not found": no pod
  const auto& rp = job["spec"].value("runPolicy", json::object());
  if (rp.contains("schedulingPolicy")) {
    spec["schedulerName"] = "volcano";
    if (!meta.contains("annotations")) meta["annotations"] = json::object();
    meta["annotations"]["scheduling.k8s.io/group-name"] = meta_name(job);
  }
  return {{"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", meta}, {"spec", spec}};
}

json PyTorchJobController::make_service(const json& job, const std::string& rtype, int index) {
  const std::string rt = ascii_lower(rtype);
  json labels = base_labels(job);
  labels["training.kubeflow.org/replica-type"] = rt;
  labels["training.kubeflow.org/replica-index"] = std::to_string(index);
  // common/service.go CreateNewService: one port per named port of the replica's `pytorch`
  // container (core.GetPortsFromJob); kube-apiserver defaults protocol and targetPort.
  json ports = json::array();
  const json tmpl = replica_specs(job)[rtype].value("template", json::object());
  for (const auto& c : tmpl.value("spec", json::object()).value("containers", json::array())) {
    if (c.value("name", "") != "pytorch") continue;
    for (const auto& p : c.value("ports", json::array())) {
      if (p.value("name", "").empty()) continue;
      const int64_t port = int_or(p, "containerPort", 0);
      ports.push_back({{"name", p["name"]}, {"port", port}, {"protocol", "TCP"}, {"targetPort", port}});
    }
  }
  json svc =
      owned_object("v1", "Service", job,
                   {{"name", meta_name(job) + "-" + rt + "-" + std::to_string(index)}, {"labels", labels}});
  svc["spec"] = {{"clusterIP", "None"}, {"selector", labels}, {"ports", ports}};
  return svc;
}

void PyTorchJobController::reconcile(const std::string& ns, const std::string& name) {
  auto job_ptr = m_ctx.store.get_shared(*m_ctx.pytorchjobs, ns, name);
  if (!job_ptr) return;
  // pytorchjob_controller.go Reconcile: r.Scheme.Default(pytorchjob) on a copy, never stored.
  const json job = pytorch_defaults(*job_ptr);
  // pytorchjob_controller.go GetPodsForJob: the namespace's pods matching GenLabels
  // (operator-name, job-name) and controlled by this job (util.JobControlledPodList). v1.9.0
  // overrides common/pod.go's ControllerRefManager here: nothing is adopted or released.
  ObjectList pods;
  for (auto& p : m_ctx.children(*m_ctx.pods, job))
    if (label(*p, "training.kubeflow.org/operator-name") == "pytorchjob-controller" &&
        label(*p, "training.kubeflow.org/job-name") == meta_name(job))
      pods.push_back(std::move(p));
  const std::string now = m_ctx.now_str();
  const std::string jname = meta_name(job);

  if (job_finished(job)) {
    clean_pods(m_ctx, job, pods, true);
    apply_ttl(m_ctx, *m_ctx.pytorchjobs, job);
    return;
  }
  json status = job.value("status", json::object());
  update_job_condition(status, "Created", "PyTorchJobCreated", "PyTorchJob " + jname + " is created.", now);
  if (!status.contains("startTime")) status["startTime"] = now;

  std::map<std::string, std::shared_ptr<const json>> by_name;
  for (const auto& p : pods) by_name[meta_name(*p)] = p;

  // runPolicy limits: deadline and backoff.
  json tmp = job;
  tmp["status"] = status;
  std::string limit_message;
  if (auto left = deadline_left(m_ctx, tmp)) {
    if (left->count() <= 0)
      limit_message = "Job " + jname + " has failed because it was active longer than specified deadline";
    else
      m_ctx.wake_at(ObjectKey{m_ctx.pytorchjobs, ns, name}, m_ctx.now() + *left);
  }
  const auto& rp = job["spec"].value("runPolicy", json::object());
  if (limit_message.empty() && rp.contains("backoffLimit") &&
      container_restarts(pods) >= int_or(rp, "backoffLimit", 0) && container_restarts(pods) > 0)
    limit_message = "Job " + jname + " has failed because it has reached the specified backoff limit";
  if (!limit_message.empty()) {
    update_job_condition(status, "Failed", "PyTorchJobFailed", limit_message, now);
    if (!status.contains("completionTime")) status["completionTime"] = now;
    m_ctx.patch(*m_ctx.pytorchjobs, ns, name, [&](json& obj) { obj["status"] = status; });
    clean_pods(m_ctx, job, pods, true);
    return;
  }

  int64_t total = 0;
  for (const auto& rtype : replica_types(job)) total += replicas_of(replica_specs(job)[rtype]);
  ensure_job_pod_group(m_ctx, job, total);

  json replica_statuses = json::object();
  bool finished = false;
  for (const auto& rtype : replica_types(job)) {
    const json& rs = replica_specs(job)[rtype];
    const int64_t replicas = replicas_of(rs);
    int64_t active = 0, succeeded = 0, failed = 0;
    bool permanent_failure = false;
    for (int i = 0; i < replicas; ++i) {
      const std::string pod_name = jname + "-" + ascii_lower(rtype) + "-" + std::to_string(i);
      auto it = by_name.find(pod_name);
      if (it == by_name.end()) {
        json pod = make_pod(job, rtype, i);
        if (pod.is_null()) continue;
        m_ctx.create_if_absent(*m_ctx.pods, std::move(pod));
        m_ctx.record_event(job, "Normal", "SuccessfulCreatePod", "Created pod: " + pod_name,
                           "pytorchjob-controller");
      } else {
        const std::string phase = phase_of(*it->second);
        if (phase == "Running") ++active;
        if (phase == "Succeeded") ++succeeded;
        if (phase == "Failed") {
          ++failed;
          if (retryable(exit_code(*it->second)) && rs.value("restartPolicy", "OnFailure") != "Never") {
            try {
              m_ctx.store.remove(*m_ctx.pods, ns, pod_name);
            } catch (const StatusError&) {
            }
          } else {
            permanent_failure = true;
          }
        }
      }
      if (m_ctx.services && !m_ctx.store.get_shared(*m_ctx.services, ns, pod_name)) {
        m_ctx.create_if_absent(*m_ctx.services, make_service(job, rtype, i));
        m_ctx.record_event(job, "Normal", "SuccessfulCreateService", "Created service: " + pod_name,
                           "pytorchjob-controller");
      }
    }
    replica_statuses[rtype] = json::object();
    if (active) replica_statuses[rtype]["active"] = active;
    if (succeeded) replica_statuses[rtype]["succeeded"] = succeeded;
    if (failed) replica_statuses[rtype]["failed"] = failed;
    const bool decides = rtype == "Master" || !replica_specs(job).contains("Master");
    if (decides && active > 0)
      update_job_condition(status, "Running", "PyTorchJobRunning", "PyTorchJob " + jname + " is running.",
                           now);
    if (decides && replicas - succeeded == 0) {
      update_job_condition(status, "Succeeded", "PyTorchJobSucceeded",
                           "PyTorchJob " + jname + " is successfully completed.", now);
      if (!status.contains("completionTime")) status["completionTime"] = now;
      finished = true;
    }
    if (!finished && failed > 0 && replicas > succeeded + active) {
      const std::string count = std::to_string(failed) + " " + rtype;
      if (permanent_failure || rs.value("restartPolicy", "OnFailure") == "Never") {
        update_job_condition(status, "Failed", "PyTorchJobFailed",
                             "PyTorchJob " + jname + " is failed because " + count + " replica(s) failed.",
                             now);
        if (!status.contains("completionTime")) status["completionTime"] = now;
        finished = true;
      } else {
        update_job_condition(
            status, "Restarting", "PyTorchJobRestarting",
            "PyTorchJob " + jname + " is restarting because " + count + " replica(s) failed.", now);
      }
    }
  }
  status["replicaStatuses"] = replica_statuses;
  m_ctx.patch(*m_ctx.pytorchjobs, ns, name, [&](json& obj) { obj["status"] = status; });
  if (finished) {
    auto updated = m_ctx.store.get_shared(*m_ctx.pytorchjobs, ns, name);
    if (updated) {
      clean_pods(m_ctx, *updated, m_ctx.children(*m_ctx.pods, *updated), true);
      apply_ttl(m_ctx, *m_ctx.pytorchjobs, *updated);
    }
  }
}

}  // namespace kubesim
