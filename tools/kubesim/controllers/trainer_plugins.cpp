// The Trainer's ML-policy and pod-group plugins (see trainer_plugins.h), kubeflow/trainer
// v2.3.0 pkg/runtime/framework/plugins/{plainml,torch,mpi,jax,xgboost,trainjobstatus,volcano,
// coscheduling}.
#include "kubesim/controllers/trainer_plugins.h"

#include <cmath>

#include "core/text.h"
#include "kubesim/controllers/context.h"
#include "kubesim/controllers/trainer_model.h"

namespace kubesim {

namespace {

json env_value(const std::string& name, const std::string& value) { return {{"name", name}, {"value", value}}; }
json env_index(const std::string& name) {
  return {{"name", name}, {"valueFrom", {{"fieldRef", {{"fieldPath", kCompletionIndexFieldPath}}}}}};
}

}  // namespace

json trainer_apply_env_var(const json& e) {
  json out = {{"name", e.value("name", "")}};
  if (e.contains("valueFrom") && e["valueFrom"].is_object()) {
    const json& from = e["valueFrom"];
    json src = json::object();
    if (from.contains("fieldRef")) src["fieldRef"] = {{"fieldPath", from["fieldRef"].value("fieldPath", "")}};
    for (const char* k : {"resourceFieldRef", "configMapKeyRef", "secretKeyRef"})
      if (from.contains(k)) src[k] = from[k];
    out["valueFrom"] = src;
  } else {
    out["value"] = e.value("value", "");
  }
  return out;
}

namespace {

json trainer_of(const json& tj) { return tj.value("spec", json::object()).value("trainer", json()); }

json* container_named(json& containers, const std::string& name) {
  for (auto& c : containers)
    if (c.value("name", "") == name) return &c;
  return nullptr;
}

void upsert_envs(json& container, const json& envs) {
  for (const auto& e : envs) upsert_by(container["env"], e, "name");
}

void upsert_trainjob_env(json& container, const json& trainer) {
  for (const auto& e : trainer.value("env", json::array())) upsert_by(container["env"], trainer_apply_env_var(e), "name");
}

// apply.UpsertPort: byContainerPortOrName compares the names with ptr.Equal, for which two
// absent names are equal: an unnamed port of the runtime is replaced by the unnamed 29500.
void upsert_port(json& container, int port) {
  json& ports = container["ports"];
  if (!ports.is_array()) ports = json::array();
  for (auto& p : ports)
    if (p.value("containerPort", 0) == port || !p.contains("name")) {
      p = {{"containerPort", port}};
      return;
    }
  ports.push_back({{"containerPort", port}});
}

bool has_policy(const TrainerInfo& info, const char* key) {
  return info.ml_policy.is_object() && info.ml_policy.contains(key) && !info.ml_policy[key].is_null();
}

void override_count(TrainerPodSet* ps, const json& trainer) {
  if (ps && trainer.is_object() && trainer.contains("numNodes") && trainer["numNodes"].is_number_integer())
    ps->count = trainer["numNodes"].get<int64_t>();
}

void plainml_plugin(TrainerInfo& info, const json& tj) {
  if (has_policy(info, "torch") || has_policy(info, "mpi") || has_policy(info, "jax")) return;
  const json trainer = trainer_of(tj);
  override_count(info.podset_by_ancestor(kAncestorTrainer), trainer);
  if (!trainer.is_object()) return;
  if (auto* ps = info.podset_by_ancestor(kAncestorTrainer))
    if (json* c = container_named(ps->containers, kNodeName)) upsert_trainjob_env(*c, trainer);
}

void torch_plugin(TrainerInfo& info, const json& tj) {
  if (!has_policy(info, "torch")) return;
  const json trainer = trainer_of(tj);
  TrainerPodSet* ps = info.podset_by_ancestor(kAncestorTrainer);
  override_count(ps, trainer);
  std::string nproc = "auto";
  if (trainer.is_object() && trainer.contains("numProcPerNode") && trainer["numProcPerNode"].is_number_integer())
    nproc = std::to_string(trainer["numProcPerNode"].get<int64_t>());
  const json res = trainer_resources_per_node(info, tj);
  const int64_t gpus = gpus_per_node(res);
  if (nproc == "auto" && gpus == 0) {
    // torch.go getNumCPUPerNode: the request, else the limit, rounded up (Quantity.Value).
    const json req = res.value("requests", json::object()), lim = res.value("limits", json::object());
    int64_t milli = req.contains("cpu") ? parse_cpu_milli(req["cpu"]) : 0;
    if (milli == 0 && lim.contains("cpu")) milli = parse_cpu_milli(lim["cpu"]);
    nproc = std::to_string(std::max<int64_t>(1, (milli + 999) / 1000));
  }
  json* c = nullptr;
  if (trainer.is_object() && ps) c = container_named(ps->containers, kNodeName);
  if (c) upsert_trainjob_env(*c, trainer);
  const std::string name = meta_name(tj);
  const json pet = {env_value("PET_NNODES", std::to_string(ps ? ps->count : 1)),
                    env_value("PET_NPROC_PER_NODE", nproc), env_index("PET_NODE_RANK")};
  const json master = {env_value("PET_MASTER_ADDR", name + "-" + kNodeName + "-0-0." + name),
                       env_value("PET_MASTER_PORT", std::to_string(kTrainerPort))};
  if (c) {
    upsert_envs(*c, pet);
    // torchtune (command ["tune","run"]) takes --rdzv_endpoint in its command instead; kubesim
    // leaves that command as it is (the recipe and config it derives are not modelled).
    if (trainer.value("command", json::array()) != json::array({"tune", "run"})) upsert_envs(*c, master);
    upsert_port(*c, kTrainerPort);
  }
  const json targets = info.ml_policy["torch"].value("envInjection", json::object()).value("targets", json::array());
  for (const auto& t : targets)
    for (const auto& cn : t.value("containerNames", json::array())) {
      TrainerPodSet* tps = info.podset_by_name(t.value("jobName", ""));
      json* tc = tps ? container_named(tps->containers, cn.get<std::string>()) : nullptr;
      if (!tc && tps) tc = container_named(tps->init_containers, cn.get<std::string>());
      if (!tc)
        throw TrainerError("envInjection target podSet \"" + t.value("jobName", "") + "\" container \"" +
                           cn.get<std::string>() + "\" not found in runtime template");
      upsert_envs(*tc, pet);
      upsert_envs(*tc, master);
    }
}

void mpi_plugin(TrainerInfo& info, const json& tj) {
  if (!has_policy(info, "mpi")) return;
  json& policy = info.ml_policy["mpi"];
  const json trainer = trainer_of(tj);
  const bool as_node = policy.value("runLauncherAsNode", false);
  if (trainer.is_object() && trainer.contains("numNodes") && trainer["numNodes"].is_number_integer())
    if (TrainerPodSet* node = info.podset_by_name(kNodeName)) {
      const int64_t n = trainer["numNodes"].get<int64_t>();
      node->count = as_node ? std::max<int64_t>(n - 1, 1) : n;
    }
  if (trainer.is_object() && trainer.contains("numProcPerNode") && trainer["numProcPerNode"].is_number_integer()) {
    policy["numProcPerNode"] = trainer["numProcPerNode"];
  } else if (policy.value("numProcPerNode", 1) == 1) {
    const int64_t gpus = gpus_per_node(trainer_resources_per_node(info, tj));
    if (gpus > 1) policy["numProcPerNode"] = gpus;
  }
  const std::string name = meta_name(tj);
  const json ssh = {{"name", "mpi-ssh-auth"},
                    {"secret",
                     {{"secretName", name + "-mpi-ssh-auth"},
                      {"defaultMode", 0400},
                      {"items",
                       {{{"key", "ssh-privatekey"}, {"path", "id_rsa"}, {"mode", 0640}},
                        {{"key", "ssh-publickey"}, {"path", "id_rsa.pub"}, {"mode", 0644}},
                        {{"key", "ssh-publickey"}, {"path", "authorized_keys"}, {"mode", 0644}}}}}}};
  const json hostfile = {
      {"name", "mpi-hostfile"},
      {"configMap",
       {{"name", name + "-mpi-hostfile"}, {"items", {{{"key", "hostfile"}, {"path", "hostfile"}, {"mode", 0444}}}}}}};
  for (auto& ps : info.podsets) {
    if (ps.name != kNodeName && ps.name != kLauncherName) continue;
    upsert_by(ps.volumes, ssh, "name");
    if (ps.name == kLauncherName) upsert_by(ps.volumes, hostfile, "name");
    for (auto& c : ps.containers) {
      if (c.value("name", "") != kNodeName) continue;
      upsert_by(c["volumeMounts"], {{"name", "mpi-ssh-auth"}, {"mountPath", policy.value("sshAuthMountPath", "/root/.ssh")}},
                "mountPath");
      if (ps.name != kLauncherName) continue;
      upsert_by(c["volumeMounts"], {{"name", "mpi-hostfile"}, {"mountPath", "/etc/mpi"}}, "mountPath");
      const std::string impl = policy.value("mpiImplementation", "OpenMPI");
      if (impl != "OpenMPI") throw TrainerError("MPI implementation for " + impl + " doesn't supported");
      upsert_envs(c, {env_value("OMPI_MCA_orte_default_hostfile", "/etc/mpi/hostfile"),
                      env_value("OMPI_MCA_orte_keep_fqdn_hostnames", "true"),
                      env_value("OMPI_MCA_orte_set_default_slots", std::to_string(policy.value("numProcPerNode", 1))),
                      env_value("OMPI_MCA_plm_rsh_args", "-o ConnectionAttempts=10")});
    }
  }
}

void jax_plugin(TrainerInfo& info, const json& tj) {
  if (!has_policy(info, "jax")) return;
  const json trainer = trainer_of(tj);
  TrainerPodSet* ps = info.podset_by_ancestor(kAncestorTrainer);
  override_count(ps, trainer);
  if (!trainer.is_object() || !ps) return;
  json* c = container_named(ps->containers, kNodeName);
  if (!c) return;
  const std::string name = meta_name(tj);
  upsert_envs(*c, {env_value("JAX_NUM_PROCESSES", std::to_string(ps->count)), env_index("JAX_PROCESS_ID"),
                   env_value("JAX_COORDINATOR_ADDRESS",
                             name + "-node-0-0." + name + ":" + std::to_string(kTrainerPort))});
  upsert_port(*c, kTrainerPort);
}

void xgboost_plugin(TrainerInfo& info, const json& tj) {
  if (!has_policy(info, "xgboost")) return;
  TrainerPodSet* ps = info.podset_by_ancestor(kAncestorTrainer);
  if (!ps) return;
  const json trainer = trainer_of(tj);
  override_count(ps, trainer);
  if (!trainer.is_object()) return;
  json* c = container_named(ps->containers, kNodeName);
  if (!c) return;
  const int64_t gpus = gpus_per_node(trainer_resources_per_node(info, tj));
  const std::string name = meta_name(tj);
  upsert_envs(*c, {env_value("DMLC_TRACKER_URI", name + "-node-0-0." + name),
                   env_value("DMLC_TRACKER_PORT", std::to_string(kTrainerPort)), env_index("DMLC_TASK_ID"),
                   env_value("DMLC_NUM_WORKER", std::to_string(ps->count * (gpus > 0 ? gpus : 1)))});
  upsert_port(*c, kTrainerPort);
}

void trainjobstatus_plugin(TrainerInfo& info, const json& tj, const TrainerOptions& options) {
  if (!options.trainjob_status) return;
  TrainerPodSet* ps = info.podset_by_ancestor(kAncestorTrainer);
  if (!ps) return;
  const std::string mount = "/var/run/secrets/kubeflow/trainer";
  for (auto& c : ps->containers) {
    upsert_envs(c, {env_value("KUBEFLOW_TRAINER_SERVER_URL", trainer_status_url(tj, options)),
                    env_value("KUBEFLOW_TRAINER_SERVER_CA_CERT", mount + "/ca.crt"),
                    env_value("KUBEFLOW_TRAINER_SERVER_TOKEN", mount + "/token")});
    upsert_by(c["volumeMounts"], {{"name", "kubeflow-trainer-token"}, {"mountPath", mount}, {"readOnly", true}},
              "mountPath");
  }
  const std::string ns = meta_ns(tj), name = meta_name(tj);
  upsert_by(ps->volumes,
            {{"name", "kubeflow-trainer-token"},
             {"projected",
              {{"sources",
                {{{"serviceAccountToken",
                   {{"audience", "trainer.kubeflow.org/v1alpha1/namespaces/" + ns + "/trainjobs/" + name + "/status"},
                    {"expirationSeconds", 3600},
                    {"path", "token"}}}},
                 {{"configMap",
                   {{"name", name + "-tls-config"}, {"items", {{{"key", "ca.crt"}, {"path", "ca.crt"}}}}}}}}}}}},
            "name");
}

}  // namespace

json trainer_resources_per_node(const TrainerInfo& info, const json& tj) {
  const json trainer = trainer_of(tj);
  if (trainer.is_object() && trainer.contains("resourcesPerNode") && trainer["resourcesPerNode"].is_object())
    return trainer["resourcesPerNode"];
  for (const auto& rj : info.spec.value("replicatedJobs", json::array())) {
    const json labels = rj.value("template", json::object()).value("metadata", json::object()).value("labels", json::object());
    if (rj.value("name", "") != kNodeName && labels.value(kAncestorLabel, "") != kAncestorTrainer) continue;
    const json pod = rj.value("template", json::object()).value("spec", json::object()).value("template", json::object());
    for (const auto& c : pod.value("spec", json::object()).value("containers", json::array()))
      if (c.value("name", "") == kNodeName && c.contains("resources")) return c["resources"];
  }
  return json::object();
}

int64_t gpus_per_node(const json& resources) {
  auto count = [](const json& list) -> int64_t {
    if (!list.is_object()) return 0;
    for (const auto& [k, v] : list.items()) {  // sorted by name
      if (trainctl::ascii_lower(k).find("gpu") != std::string::npos) return parse_quantity(v);
    }
    return 0;
  };
  const int64_t req = count(resources.value("requests", json::object()));
  return req > 0 ? req : count(resources.value("limits", json::object()));
}

std::string trainer_status_url(const json& tj, const TrainerOptions& options) {
  return "https://kubeflow-trainer-controller-manager." + options.operator_namespace +
         ".svc:10443/apis/trainer.kubeflow.org/v1alpha1/namespaces/" + meta_ns(tj) + "/trainjobs/" + meta_name(tj) +
         "/status";
}

void enforce_ml_policy(TrainerInfo& info, const json& tj, const TrainerOptions& options) {
  plainml_plugin(info, tj);
  torch_plugin(info, tj);
  mpi_plugin(info, tj);
  jax_plugin(info, tj);
  xgboost_plugin(info, tj);
  trainjobstatus_plugin(info, tj, options);
}

void enforce_pod_group_policy(TrainerInfo& info, const json& tj) {
  if (!info.pod_group_policy.is_object()) return;
  if (info.pod_group_policy.contains("coscheduling"))
    info.pod_labels["scheduling.x-k8s.io/pod-group"] = meta_name(tj);
  if (info.pod_group_policy.contains("volcano"))
    info.pod_annotations["scheduling.k8s.io/group-name"] = meta_name(tj);
}

}  // namespace kubesim
