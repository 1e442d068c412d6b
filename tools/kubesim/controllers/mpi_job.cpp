// MPIJob v2beta1: workers, launcher Job, hostfile ConfigMap and status like mpi-operator.
#include "kubesim/controllers/mpi_job.h"

#include "kubesim/controllers/job_conditions.h"
#include "kubesim/controllers/pod_status.h"
#include "kubesim/controllers/pytorch_job.h"
#include "kubesim/controllers/run_policy.h"

namespace kubesim {

namespace {

json default_labels(const json& job, const std::string& role) {
  return {{"training.kubeflow.org/operator-name", "mpi-operator"},
          {"training.kubeflow.org/job-name", meta_name(job)},
          {"training.kubeflow.org/job-role", role}};
}

json replica(const json& job, const std::string& type) {
  const json specs = job.value("spec", json::object()).value("mpiReplicaSpecs", json::object());
  return specs.value(type, json::object());
}

int64_t worker_count(const json& job) {
  const json w = replica(job, "Worker");
  return w.empty() ? 0 : int_or(w, "replicas", 0);
}

std::string host(const json& job, int i) {
  return meta_name(job) + "-worker-" + std::to_string(i) + "." + meta_name(job) + "." + meta_ns(job) + ".svc";
}

json pod_template(const json& job, const std::string& type, const std::string& role, json labels,
                  const std::string& group) {
  const json rs = replica(job, type);
  json tmpl = rs.value("template", json::object());
  json meta = tmpl.value("metadata", json::object());
  json l = meta.value("labels", json::object());
  for (auto it = labels.begin(); it != labels.end(); ++it) l[it.key()] = *it;
  meta["labels"] = l;
  meta.erase("creationTimestamp");
  json spec = tmpl.value("spec", json::object());
  spec["restartPolicy"] = rs.value("restartPolicy", role == "launcher" ? "OnFailure" : "Never");
  spec["subdomain"] = meta_name(job);
  const int64_t slots = int_or(job["spec"], "slotsPerWorker", 1);
  if (spec.contains("containers"))
    for (auto& c : spec["containers"]) {
      if (!c.contains("env") || !c["env"].is_array()) c["env"] = json::array();
      auto add = [&](const std::string& k, const std::string& v) {
        c["env"].push_back({{"name", k}, {"value", v}});
      };
      add("K_MPI_JOB_ROLE", role);
      if (role == "launcher") {
        add("OMPI_MCA_orte_keep_fqdn_hostnames", "true");
        add("OMPI_MCA_orte_default_hostfile", "/etc/mpi/hostfile");
        add("OMPI_MCA_plm_rsh_args", "-o ConnectionAttempts=10");
        add("OMPI_MCA_orte_set_default_slots", std::to_string(slots));
      }
    }
  if (!group.empty()) {
    spec["schedulerName"] = "volcano";
    if (!meta.contains("annotations")) meta["annotations"] = json::object();
    meta["annotations"]["scheduling.k8s.io/group-name"] = group;
  }
  return {{"metadata", meta}, {"spec", spec}};
}

}  // namespace

json MpiJobController::make_worker(const json& job, int index, const std::string& group) {
  json labels = default_labels(job, "worker");
  labels["training.kubeflow.org/replica-index"] = std::to_string(index);
  json t = pod_template(job, "Worker", "worker", labels, group);
  const std::string name = meta_name(job) + "-worker-" + std::to_string(index);
  json& meta = t["metadata"];
  meta["name"] = name;
  meta["namespace"] = meta_ns(job);
  meta["ownerReferences"] = json::array({owner_reference(job)});
  if (!meta.contains("annotations")) meta["annotations"] = json::object();
  // Workers serve sshd until the launcher is done.
  if (!meta["annotations"].contains(kOutcomeAnnotation))
    meta["annotations"][kOutcomeAnnotation] = "run-forever";
  t["spec"]["hostname"] = name;
  return {{"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", meta}, {"spec", t["spec"]}};
}

json MpiJobController::make_launcher_job(const json& job, const std::string& group) {
  const json labels = default_labels(job, "launcher");
  json t = pod_template(job, "Launcher", "launcher", labels, group);
  inherit_sim_annotations(job, t["metadata"]);
  t["spec"]["hostname"] = meta_name(job) + "-launcher";
  json spec = {{"template", t}};
  const json rp = job["spec"].value("runPolicy", json::object());
  if (rp.contains("backoffLimit")) spec["backoffLimit"] = rp["backoffLimit"];
  if (rp.contains("activeDeadlineSeconds")) spec["activeDeadlineSeconds"] = rp["activeDeadlineSeconds"];
  return {{"apiVersion", "batch/v1"},
          {"kind", "Job"},
          {"metadata",
           {{"name", meta_name(job) + "-launcher"},
            {"namespace", meta_ns(job)},
            {"labels", labels},
            {"ownerReferences", json::array({owner_reference(job)})}}},
          {"spec", spec}};
}

json MpiJobController::make_config_map(const json& job) {
  const int64_t slots = int_or(job["spec"], "slotsPerWorker", 1);
  std::string hostfile, discover = "#!/bin/sh\n";
  for (int i = 0; i < worker_count(job); ++i) {
    hostfile += host(job, i) + " slots=" + std::to_string(slots) + "\n";
    discover += "echo " + host(job, i) + "\n";
  }
  json labels = {{"app", meta_name(job)}};
  return {{"apiVersion", "v1"},
          {"kind", "ConfigMap"},
          {"metadata",
           {{"name", meta_name(job) + "-config"},
            {"namespace", meta_ns(job)},
            {"labels", labels},
            {"ownerReferences", json::array({owner_reference(job)})}}},
          {"data", {{"hostfile", hostfile}, {"discover_hosts.sh", discover}}}};
}

void MpiJobController::reconcile(const std::string& ns, const std::string& name) {
  auto ptr = m_ctx.store.get_shared(*m_ctx.mpijobs, ns, name);
  if (!ptr || !ptr->contains("spec")) return;
  const json job = *ptr;
  const std::string now = m_ctx.now_str();
  const std::string id = ns + "/" + name;
  const ObjectList workers = m_ctx.children(*m_ctx.pods, job);
  if (job_finished(job)) {
    if (has_true_condition(job, "Succeeded")) clean_pods(m_ctx, job, workers, false);
    apply_ttl(m_ctx, *m_ctx.mpijobs, job);
    return;
  }
  json status = job.value("status", json::object());
  update_job_condition(status, "Created", "MPIJobCreated", "MPIJob " + id + " is created.", now);
  if (!status.contains("startTime")) status["startTime"] = now;

  const int64_t count = worker_count(job);
  const std::string group = ensure_job_pod_group(m_ctx, job, count + 1);
  if (m_ctx.configmaps) m_ctx.create_if_absent(*m_ctx.configmaps, make_config_map(job));
  if (m_ctx.services) {
    json sel = {{"training.kubeflow.org/operator-name", "mpi-operator"},
                {"training.kubeflow.org/job-name", name}};
    m_ctx.create_if_absent(
        *m_ctx.services,
        {{"apiVersion", "v1"},
         {"kind", "Service"},
         {"metadata",
          {{"name", name},
           {"namespace", ns},
           {"labels", sel},
           {"ownerReferences", json::array({owner_reference(job)})}}},
         {"spec", {{"clusterIP", "None"}, {"selector", sel}, {"publishNotReadyAddresses", true}}}});
  }
  std::map<std::string, std::shared_ptr<const json>> by_name;
  for (const auto& p : workers) by_name[meta_name(*p)] = p;
  int64_t w_active = 0, w_succeeded = 0, w_failed = 0, w_running = 0;
  for (int i = 0; i < count; ++i) {
    auto it = by_name.find(name + "-worker-" + std::to_string(i));
    if (it == by_name.end()) {
      m_ctx.create_if_absent(*m_ctx.pods, make_worker(job, i, group));
      continue;
    }
    const std::string phase = phase_of(*it->second);
    if (phase == "Running") ++w_running;
    if (phase == "Running" || phase == "Pending") ++w_active;
    if (phase == "Succeeded") ++w_succeeded;
    if (phase == "Failed") ++w_failed;
  }
  const std::string launcher_name = name + "-launcher";
  auto launcher = m_ctx.store.get_shared(*m_ctx.jobs, ns, launcher_name);
  if (!launcher && (w_running == count || job["spec"].value("launcherCreationPolicy", "") == "AtStartup"))
    launcher =
        std::make_shared<const json>(m_ctx.create_if_absent(*m_ctx.jobs, make_launcher_job(job, group)));

  json rs = {{"Launcher", json::object()}, {"Worker", json::object()}};
  if (w_active) rs["Worker"]["active"] = w_active;
  if (w_succeeded) rs["Worker"]["succeeded"] = w_succeeded;
  if (w_failed) rs["Worker"]["failed"] = w_failed;
  bool launcher_running = false;
  if (launcher) {
    const json lst = launcher->value("status", json::object());
    for (const auto& p : m_ctx.children(*m_ctx.pods, *launcher))
      if (phase_of(*p) == "Running") launcher_running = true;
    if (int_or(lst, "active", 0)) rs["Launcher"]["active"] = int_or(lst, "active", 0);
    if (int_or(lst, "succeeded", 0)) rs["Launcher"]["succeeded"] = int_or(lst, "succeeded", 0);
    if (int_or(lst, "failed", 0)) rs["Launcher"]["failed"] = int_or(lst, "failed", 0);
    for (const auto& c : lst.value("conditions", json::array())) {
      if (c.value("status", "") != "True") continue;
      if (c.value("type", "") == "Complete") {
        update_job_condition(status, "Succeeded", "MPIJobSucceeded",
                             "MPIJob " + id + " successfully completed.", now);
        status["completionTime"] = lst.value("completionTime", now);
      } else if (c.value("type", "") == "Failed") {
        const std::string reason = c.value("reason", "");
        update_job_condition(
            status, "Failed", reason.empty() ? "MPIJobFailed" : reason,
            "MPIJob " + id + " has failed" + (c.contains("message") ? ": " + c.value("message", "") : ""),
            now);
        status["completionTime"] = now;
      }
    }
  }
  if (!job_finished(json{{"status", status}}) && launcher_running && w_running == count)
    update_job_condition(status, "Running", "MPIJobRunning", "MPIJob " + id + " is running.", now);
  status["replicaStatuses"] = rs;
  m_ctx.patch(*m_ctx.mpijobs, ns, name, [&](json& obj) { obj["status"] = status; });
  if (job_finished(json{{"status", status}})) {
    if (auto updated = m_ctx.store.get_shared(*m_ctx.mpijobs, ns, name)) {
      if (has_true_condition(*updated, "Succeeded"))
        clean_pods(m_ctx, *updated, m_ctx.children(*m_ctx.pods, *updated), false);
      apply_ttl(m_ctx, *m_ctx.mpijobs, *updated);
    }
  }
}

}  // namespace kubesim
