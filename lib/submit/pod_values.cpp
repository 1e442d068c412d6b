#include "submit/pod_values.h"

#include <algorithm>

#include "submit/manifests.h"

namespace trainctl::submit {

using nlohmann::json;

json kv_list(const std::vector<KeyValue>& items) {
  json out = json::array();
  for (const auto& kv : items) out.push_back({{"key", kv.key}, {"value", kv.value}});
  return out;
}

json or_null(const std::string& s) { return s.empty() ? json() : json(s); }

namespace {

json non_empty(json list) { return list.empty() ? json() : std::move(list); }

// A key given twice keeps its last value, in its first position (trainctl's labels come
// after the user's: list and get select on them).
std::vector<KeyValue> last_wins(const std::vector<KeyValue>& items) {
  std::vector<KeyValue> out;
  for (const auto& kv : items) {
    auto it = std::find_if(out.begin(), out.end(), [&](const KeyValue& e) { return e.key == kv.key; });
    if (it != out.end())
      it->value = kv.value;
    else
      out.push_back(kv);
  }
  return out;
}

bool has_env(const std::vector<KeyValue>& envs, const std::string& name) {
  return std::any_of(envs.begin(), envs.end(), [&](const KeyValue& kv) { return kv.key == name; });
}

}  // namespace

json pod_values(const Plan& p, const PodRole& role) {
  json v = json::object();
  const int gpus = role.gpus >= 0 ? role.gpus : p.gpus;

  std::vector<KeyValue> labels = p.labels;
  for (const auto& kv : standard_labels_for_pods(p)) labels.push_back(kv);
  for (const auto& [k, val] : role.extra_labels.items()) labels.push_back({k, val.get<std::string>()});
  if (p.gang) {
    // Arena's addPodGroupLabel (pkg/argsbuilder/submit.go): the labels of scheduler-plugins'
    // lightweight coscheduling, for clusters whose gang scheduler reads pod labels rather than
    // the PodGroup the operator creates from runPolicy.schedulingPolicy.
    labels.push_back({"pod-group.scheduling.sigs.k8s.io/name", p.kind->type + "-" + p.name});
    labels.push_back({"pod-group.scheduling.sigs.k8s.io/min-available", std::to_string(p.min_available)});
  }
  v["pod_labels"] = kv_list(last_wins(labels));
  v["pod_annotations"] = non_empty(kv_list(p.annotations));
  // The operators take the replica's restartPolicy and warn on every pod whose template sets
  // one (training-operator common/pod.go, mpi-operator mpi_job_controller.go): only batch Jobs
  // and Volcano tasks set it in the pod template.
  v["restart_policy"] = or_null(role.restart_policy);
  v["scheduler"] = or_null(p.scheduler);
  v["priority_class"] = or_null(p.priority);
  v["subdomain"] = or_null(role.subdomain);
  v["host_network"] = p.host_network;
  v["service_account"] = or_null(p.service_account);
  v["host_ipc"] = p.host_ipc;
  v["host_pid"] = p.host_pid;
  v["image_pull_policy"] = or_null(p.image_pull_policy);
  v["rdma"] = p.rdma && role.job_resources;
  v["node_selector"] = non_empty(kv_list(p.selectors));
  v["tolerations_json"] = p.tolerations.empty() ? json() : p.tolerations;
  json secrets = json::array();
  for (const auto& s : p.image_pull_secrets) secrets.push_back({{"name", s}});
  v["image_pull_secrets"] = non_empty(secrets);

  v["container_name"] = role.container_name;
  v["image"] = role.image.empty() ? p.image : role.image;
  const std::string command = role.command.empty() ? p.command : role.command;
  v["command"] = role.run_command ? or_null(command) : json();
  v["shell"] = p.shell;
  v["working_dir"] = p.working_dir;

  // Environment: the user's first; implicit variables only where the user set none.
  json env = kv_list(p.envs);
  for (auto& e : env) e = {{"name", e["key"]}, {"value", e["value"]}};
  v["user_env"] = non_empty(env);
  for (const auto& e : role.extra_env)
    if (!has_env(p.envs, e["name"])) env.push_back(e);
  // Arena's setJobInfoToEnv: scripts read the job's shape (`-np $((workers*gpus))`).
  if (role.job_info_env) {
    if (!has_env(p.envs, "workers"))
      env.push_back({{"name", "workers"}, {"value", std::to_string(p.workers)}});
    if (!has_env(p.envs, "gpus")) env.push_back({{"name", "gpus"}, {"value", std::to_string(p.gpus)}});
  }
  // Arena's disabledNvidiaENVWithNoneGPURequest: a pod without GPUs sees none, except on ACK's
  // GPU sharing, whose device plugin sets the variable itself.
  if (gpus == 0 && !p.gpu_share && !has_env(p.envs, "NVIDIA_VISIBLE_DEVICES"))
    env.push_back({{"name", "NVIDIA_VISIBLE_DEVICES"}, {"value", "void"}});
  v["env"] = non_empty(env);
  json fields = json::array();
  for (const auto& e : role.extra_env_fields)
    if (!has_env(p.envs, e["name"])) fields.push_back(e);
  v["env_fields"] = non_empty(fields);

  std::vector<KeyValue> resources = role.resources;
  if (role.job_resources) {
    if (!p.cpu.empty()) resources.push_back({"cpu", p.cpu});
    if (!p.memory.empty()) resources.push_back({"memory", p.memory});
    if (gpus > 0) resources.push_back({p.gpu_resource, std::to_string(gpus)});
    for (const auto& d : p.devices) resources.push_back(d);
  }
  v["resources"] = non_empty(kv_list(resources));
  v["has_resources"] = !resources.empty();

  if (!role.ports.empty()) v["ports"] = role.ports;

  // Volumes and mounts.
  json mounts = json::array();
  json pvcs = json::array();
  json hosts = json::array();
  for (const auto& d : p.data) {
    pvcs.push_back({{"name", d.pvc}, {"claim", d.pvc}});
    mounts.push_back({{"name", d.pvc}, {"path", d.path}});
  }
  for (size_t i = 0; i < p.data_dirs.size(); ++i) {
    const std::string name = "training-data-" + std::to_string(i);
    hosts.push_back({{"name", name}, {"path", p.data_dirs[i].host}});
    mounts.push_back({{"name", name}, {"path", p.data_dirs[i].path}});
  }
  if (p.tensorboard && !p.logdir_on_data && !p.logdir_remote) {
    hosts.push_back({{"name", "training-logs"}, {"path", tensorboard_host_path(p)}});
    mounts.push_back({{"name", "training-logs"}, {"path", p.logdir}});
  }
  if (!p.sync_mode.empty()) {
    mounts.push_back(
        {{"name", "code-sync"}, {"path", p.working_dir + (p.working_dir.back() == '/' ? "" : "/") + "code"}});
    json sync = {{"image", p.sync_image},
                 {"source", p.sync_source},
                 {"git", p.sync_mode == "git"},
                 {"rsync", p.sync_mode == "rsync"},
                 {"repo", or_null(p.sync_repo)}};
    v["sync"] = sync;
    std::vector<KeyValue> sync_res = role.job_resources ? std::vector<KeyValue>{} : role.resources;
    if (role.job_resources && !p.cpu.empty()) sync_res.push_back({"cpu", p.cpu});
    if (role.job_resources && !p.memory.empty()) sync_res.push_back({"memory", p.memory});
    v["sync_resources"] = non_empty(kv_list(sync_res));
    v["has_sync_resources"] = !sync_res.empty();
  }
  json configs = json::array();
  for (size_t i = 0; i < p.config_dirs.size(); ++i) {
    const std::string name = "config-file-" + std::to_string(i);
    configs.push_back({{"name", name}, {"config_map", p.config_dirs[i].config_map}});
    mounts.push_back({{"name", name}, {"path", p.config_dirs[i].path}});
  }
  v["config_volumes"] = non_empty(configs);
  if (!p.shm_size.empty()) mounts.push_back({{"name", "dshm"}, {"path", "/dev/shm"}});
  v["mounts"] = non_empty(mounts);
  v["pvc_volumes"] = non_empty(pvcs);
  v["host_volumes"] = non_empty(hosts);
  v["shm_size"] = or_null(p.shm_size);
  return v;
}

}  // namespace trainctl::submit
