// The objects mpi-operator v0.8.0 creates for an MPIJob v2beta1, as
// pkg/controller/mpi_job_controller.go builds them (newWorker, newLauncherJob,
// newLauncherPodTemplate, newConfigMap, updateDiscoverHostsInConfigMap, newJobService), on
// the job defaulted as pkg/apis/kubeflow/v2beta1/default.go does. Not modelled: the SSH
// Secret NAME-ssh and its volumes (setupSSHOnPod), hostNetwork's dnsPolicy.
#include "kubesim/controllers/mpi_job.h"

namespace kubesim {

namespace {

json default_labels(const json& job, const std::string& role) {
  return {{"training.kubeflow.org/operator-name", "mpi-operator"},
          {"training.kubeflow.org/job-name", meta_name(job)},
          {"training.kubeflow.org/job-role", role}};
}

json replica(const json& job, const std::string& type) {
  return job["spec"]["mpiReplicaSpecs"].value(type, json::object());
}

bool launcher_as_worker(const json& job) { return job["spec"].value("runLauncherAsWorker", false); }

std::string host(const json& job, const std::string& pod) {
  return pod + "." + meta_name(job) + "." + meta_ns(job) + ".svc";
}

// setRestartPolicy: ExitCode becomes Never, the rest is copied.
// Name and label app=JOB of the ConfigMap, Service and launcher Job (newConfigMap,
// newJobService, newLauncherJob of pkg/controller/mpi_job_controller.go, v0.8.0).
json app_metadata(const json& job, const std::string& name) {
  return {{"name", name}, {"labels", {{"app", meta_name(job)}}}};
}

std::string pod_restart_policy(const json& rs) {
  const std::string p = rs.value("restartPolicy", "");
  return p == "ExitCode" ? "Never" : p;
}

json template_of(const json& job, const std::string& type, const std::string& role,
                 const std::string& group) {
  json tmpl = replica(job, type).value("template", json::object());
  json meta = tmpl.value("metadata", json::object());
  json labels = meta.value("labels", json::object());
  const json dl = default_labels(job, role);
  for (auto it = dl.begin(); it != dl.end(); ++it) labels[it.key()] = *it;
  meta["labels"] = labels;
  meta.erase("creationTimestamp");
  json spec = tmpl.value("spec", json::object());
  if (!group.empty()) {  // PodGroupCtrl.decoratePodTemplateSpec (Volcano)
    spec["schedulerName"] = "volcano";
    if (!meta.contains("annotations")) meta["annotations"] = json::object();
    meta["annotations"]["scheduling.k8s.io/group-name"] = group;
  }
  return {{"metadata", meta}, {"spec", spec}};
}

void add_env(json& container, const std::string& name, const std::optional<std::string>& value) {
  if (!container.contains("env") || !container["env"].is_array()) container["env"] = json::array();
  json e = {{"name", name}};
  if (value) e["value"] = *value;
  container["env"].push_back(e);
}

}  // namespace

json MpiJobController::defaults(const json& job) {
  json out = job;
  if (!out.contains("spec") || !out["spec"].is_object()) out["spec"] = json::object();
  json& spec = out["spec"];
  if (!spec.contains("runPolicy") || !spec["runPolicy"].is_object()) spec["runPolicy"] = json::object();
  if (!spec["runPolicy"].contains("cleanPodPolicy")) spec["runPolicy"]["cleanPodPolicy"] = "None";
  if (!spec.contains("slotsPerWorker") || spec["slotsPerWorker"].is_null()) spec["slotsPerWorker"] = 1;
  if (spec.value("sshAuthMountPath", "").empty()) spec["sshAuthMountPath"] = "/root/.ssh";
  if (spec.value("mpiImplementation", "").empty()) spec["mpiImplementation"] = "OpenMPI";
  if (spec.value("launcherCreationPolicy", "").empty()) spec["launcherCreationPolicy"] = "AtStartup";
  if (!spec.contains("mpiReplicaSpecs") || !spec["mpiReplicaSpecs"].is_object())
    spec["mpiReplicaSpecs"] = json::object();
  json& specs = spec["mpiReplicaSpecs"];
  if (specs.contains("Launcher") && specs["Launcher"].is_object()) {
    if (specs["Launcher"].value("restartPolicy", "").empty())
      specs["Launcher"]["restartPolicy"] = "OnFailure";
    if (!specs["Launcher"].contains("replicas")) specs["Launcher"]["replicas"] = 1;
  }
  if (specs.contains("Worker") && specs["Worker"].is_object()) {
    if (specs["Worker"].value("restartPolicy", "").empty()) specs["Worker"]["restartPolicy"] = "Never";
    if (!specs["Worker"].contains("replicas")) specs["Worker"]["replicas"] = 0;
  }
  return out;
}

int64_t MpiJobController::worker_replicas(const json& job) {
  const json w = replica(job, "Worker");
  return w.empty() ? 0 : int_or(w, "replicas", 0);
}

json MpiJobController::make_worker(const json& job, int index, const std::string& group) {
  json t = template_of(job, "Worker", "worker", group);
  const std::string name = meta_name(job) + "-worker-" + std::to_string(index);
  json& meta = t["metadata"];
  // workerReplicaIndexLabel: padded by one when the launcher is also a worker.
  meta["labels"]["training.kubeflow.org/replica-index"] =
      std::to_string(launcher_as_worker(job) ? index + 1 : index);
  meta["name"] = name;
  meta["namespace"] = meta_ns(job);
  meta["ownerReferences"] = json::array({owner_reference(job)});
  // Simulation: workers serve sshd until the job ends, unless their template says otherwise.
  if (!meta.contains("annotations")) meta["annotations"] = json::object();
  if (!meta["annotations"].contains(kOutcomeAnnotation))
    meta["annotations"][kOutcomeAnnotation] = "run-forever";
  json& spec = t["spec"];
  spec["hostname"] = name;
  spec["subdomain"] = meta_name(job);
  const std::string search = meta_name(job) + "." + meta_ns(job) + ".svc.cluster.local";
  if (!spec.contains("dnsConfig") || !spec["dnsConfig"].is_object()) spec["dnsConfig"] = json::object();
  if (!spec["dnsConfig"].contains("searches")) spec["dnsConfig"]["searches"] = json::array();
  spec["dnsConfig"]["searches"].push_back(search);
  spec["restartPolicy"] = pod_restart_policy(replica(job, "Worker"));
  if (spec.contains("containers") && spec["containers"].is_array() && !spec["containers"].empty()) {
    json& c = spec["containers"][0];
    if (c.value("command", json::array()).empty() && c.value("args", json::array()).empty())
      c["command"] = json::array({"/usr/sbin/sshd", "-De"});
    add_env(c, "K_MPI_JOB_ROLE", std::string("worker"));
  }
  return {{"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", meta}, {"spec", spec}};
}

json MpiJobController::make_launcher_job(const json& job, const std::string& group) {
  json t = template_of(job, "Launcher", "launcher", group);
  inherit_sim_annotations(job, t["metadata"]);
  if (launcher_as_worker(job)) t["metadata"]["labels"]["training.kubeflow.org/replica-index"] = "0";
  t["metadata"]["ownerReferences"] = json::array({owner_reference(job)});
  json& spec = t["spec"];
  spec["hostname"] = meta_name(job) + "-launcher";
  spec["subdomain"] = meta_name(job);
  const std::string impl = job["spec"].value("mpiImplementation", "OpenMPI");
  const std::string slots = std::to_string(int_or(job["spec"], "slotsPerWorker", 1));
  if (spec.contains("containers") && spec["containers"].is_array() && !spec["containers"].empty()) {
    json& c = spec["containers"][0];
    add_env(c, "K_MPI_JOB_ROLE", std::string("launcher"));
    if (impl == "OpenMPI") {
      add_env(c, "OMPI_MCA_orte_keep_fqdn_hostnames", std::string("true"));
      add_env(c, "OMPI_MCA_orte_default_hostfile", std::string("/etc/mpi/hostfile"));
      add_env(c, "OMPI_MCA_plm_rsh_args", std::string("-o ConnectionAttempts=10"));
      add_env(c, "OMPI_MCA_orte_set_default_slots", slots);
    } else if (impl == "Intel") {
      add_env(c, "I_MPI_HYDRA_HOST_FILE", std::string("/etc/mpi/hostfile"));
      add_env(c, "I_MPI_HYDRA_BOOTSTRAP_EXEC_EXTRA_ARGS", std::string("-o ConnectionAttempts=10"));
      add_env(c, "I_MPI_PERHOST", slots);
    } else if (impl == "MPICH") {
      add_env(c, "HYDRA_HOST_FILE", std::string("/etc/mpi/hostfile"));
      add_env(c, "HYDRA_LAUNCH_EXTRA_ARGS", std::string("-o ConnectionAttempts=10"));
    }
    if (!launcher_as_worker(job)) {  // nvidiaDisableEnvVars: keep the launcher off GPUs
      add_env(c, "NVIDIA_VISIBLE_DEVICES", std::nullopt);
      add_env(c, "NVIDIA_DRIVER_CAPABILITIES", std::nullopt);
    }
    if (!c.contains("volumeMounts")) c["volumeMounts"] = json::array();
    c["volumeMounts"].push_back({{"name", "mpi-job-config"}, {"mountPath", "/etc/mpi"}});
  }
  spec["restartPolicy"] = pod_restart_policy(replica(job, "Launcher"));
  if (!spec.contains("volumes")) spec["volumes"] = json::array();
  spec["volumes"].push_back(
      {{"name", "mpi-job-config"},
       {"configMap",
        {{"name", meta_name(job) + "-config"},
         {"items",
          json::array({{{"key", "hostfile"}, {"path", "hostfile"}, {"mode", 0444}},
                       {{"key", "discover_hosts.sh"}, {"path", "discover_hosts.sh"}, {"mode", 0555}}})}}}});
  // newLauncherJob: runPolicy's ttlSecondsAfterFinished, activeDeadlineSeconds and backoffLimit
  // as they are; unset ones get the batch Job defaults (backoffLimit 6) from the API server.
  json job_spec = {{"template", t}};
  const json rp = job["spec"].value("runPolicy", json::object());
  for (const char* f : {"ttlSecondsAfterFinished", "activeDeadlineSeconds", "backoffLimit"})
    if (rp.contains(f) && !rp[f].is_null()) job_spec[f] = rp[f];
  json launcher = owned_object("batch/v1", "Job", job, app_metadata(job, meta_name(job) + "-launcher"));
  launcher["spec"] = job_spec;
  return launcher;
}

json MpiJobController::make_config_map(const json& job, const std::vector<std::string>& running_workers) {
  const int64_t slots = int_or(job["spec"], "slotsPerWorker", 1);
  const std::string impl = job["spec"].value("mpiImplementation", "OpenMPI");
  auto line = [&](const std::string& pod) {
    if (impl == "OpenMPI") return host(job, pod) + " slots=" + std::to_string(slots) + "\n";
    if (impl == "Intel" || impl == "MPICH") return host(job, pod) + ":" + std::to_string(slots) + "\n";
    return std::string();
  };
  std::string hostfile, discover = "#!/bin/sh\n";
  if (launcher_as_worker(job)) {
    hostfile += line(meta_name(job) + "-launcher");
    discover += "echo " + host(job, meta_name(job) + "-launcher") + "\n";
  }
  for (int i = 0; i < worker_replicas(job); ++i)
    hostfile += line(meta_name(job) + "-worker-" + std::to_string(i));
  std::vector<std::string> sorted = running_workers;
  std::sort(sorted.begin(), sorted.end());
  for (const auto& p : sorted) discover += "echo " + host(job, p) + "\n";
  json cm = owned_object("v1", "ConfigMap", job, app_metadata(job, meta_name(job) + "-config"));
  cm["data"] = {{"hostfile", hostfile}, {"discover_hosts.sh", discover}};
  return cm;
}

json MpiJobController::make_service(const json& job) {
  json svc = owned_object("v1", "Service", job, app_metadata(job, meta_name(job)));
  svc["spec"] = {{"clusterIP", "None"},
                 {"selector",
                  {{"training.kubeflow.org/operator-name", "mpi-operator"},
                   {"training.kubeflow.org/job-name", meta_name(job)}}},
                 // Only with runLauncherAsWorker: otherwise the launcher would wait for itself.
                 {"publishNotReadyAddresses", launcher_as_worker(job)}};
  return svc;
}

}  // namespace kubesim
