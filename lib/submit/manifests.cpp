#include "submit/manifests.h"

#include "core/base64.h"
#include "core/errors.h"
#include "render/render.h"
#include "submit/pod_values.h"

namespace trainctl::submit {

using nlohmann::json;

std::vector<KeyValue> standard_labels(const Plan& p) {
  return {{"app", p.kind->type},
          {"release", p.name},
          {"createdBy", p.kind->created_by},
          {"app.kubernetes.io/managed-by", "trainctl"}};
}

std::vector<KeyValue> standard_labels_for_pods(const Plan& p) {
  auto labels = standard_labels(p);
  if (p.kind->trainer == jobs::Trainer::PyTorchNoOperator) labels.push_back({"trainctl.io/operator", "none"});
  return labels;
}

std::string tensorboard_host_path(const Plan& p) { return "/trainctl_logs/" + p.namespace_ + "/" + p.name; }

namespace {

// Always a list, empty too: a task without policies must not see the job's through the
// mustache context stack.
json policy_list(const std::vector<Policy>& policies) {
  json out = json::array();
  for (const auto& p : policies) out.push_back({{"event", p.event}, {"action", p.action}});
  return out;
}

template <typename T>
json opt(const std::optional<T>& v) {
  return v ? json(*v) : json();
}

// User labels first, trainctl's last (they win: list and get select on them).
std::vector<KeyValue> object_labels(const Plan& p, std::vector<KeyValue> standard) {
  std::vector<KeyValue> out;
  for (const auto& kv : p.labels) {
    bool overridden = false;
    for (const auto& s : standard) overridden |= s.key == kv.key;
    if (!overridden) out.push_back(kv);
  }
  for (auto& s : standard) out.push_back(std::move(s));
  return out;
}

json one_object(const render::TemplateSet& t, const std::string& kind, const std::string& name,
                const json& values) {
  std::string source;
  std::string text = t.get(kind, name, &source);
  auto objs = render::render_objects(source, text, values);
  if (objs.size() != 1 || !objs[0].is_object())
    throw Error("template " + source + " must render exactly one object, it rendered " +
                std::to_string(objs.size()));
  return objs[0];
}

json pod_template(const Plan& p, const render::TemplateSet& t, const PodRole& role) {
  json v = pod_values(p, role);
  return one_object(t, p.template_kind, "pod.yaml", v);
}

json job_values(const Plan& p) {
  json v = json::object();
  v["name"] = p.name;
  v["namespace"] = p.namespace_;
  auto labels = object_labels(p, standard_labels_for_pods(p));
  v["labels"] = kv_list(labels);
  v["annotations"] = p.annotations.empty() ? json() : kv_list(p.annotations);
  v["clean_pod_policy"] = p.clean_pod_policy;
  v["backoff_limit"] = opt(p.retry);
  v["active_deadline_seconds"] = opt(p.active_deadline_seconds);
  v["ttl_seconds_after_finished"] = opt(p.ttl_seconds_after_finished);
  v["workers"] = p.workers;
  if (p.scheduling_policy) {
    json sp = {{"min_available", p.min_available},
               {"queue", or_null(p.queue)},
               {"priority_class", or_null(p.priority)},
               {"schedule_timeout_seconds", opt(p.schedule_timeout_seconds)},
               {"min_resources", p.min_resources.empty() ? json() : kv_list(p.min_resources)}};
    v["scheduling_policy"] = sp;
  }
  return v;
}

json pytorch_job(const Plan& p, const render::TemplateSet& t) {
  json v = job_values(p);
  // An operator before v1.7 has no spec.nprocPerNode (server_facts.h): torchrun reads the
  // same setting from PET_NPROC_PER_NODE, which such an operator does not set itself.
  v["nproc_per_node"] = p.nproc_per_node_env ? json() : or_null(p.nproc_per_node);
  PodRole master{"pytorch", ""};
  if (p.nproc_per_node_env) master.extra_env.push_back({{"name", "PET_NPROC_PER_NODE"}, {"value", p.nproc_per_node}});
  v["master_template_json"] = pod_template(p, t, master);
  if (p.workers > 1) {
    PodRole worker{"pytorch", "", p.worker_image};
    worker.extra_env = master.extra_env;
    v["worker_replicas"] = p.workers - 1;
    v["worker_template_json"] = pod_template(p, t, worker);
  }
  return one_object(t, p.template_kind, "job.yaml", v);
}

json mpi_job(const Plan& p, const render::TemplateSet& t) {
  json v = job_values(p);
  v["slots_per_worker"] = p.slots_per_worker;
  v["launcher_creation_policy"] = or_null(p.launcher_creation_policy);
  // The launcher only runs mpirun: as Arena's, it requests nothing unless --launcher-cpu /
  // --launcher-memory say so (mpi-operator also keeps it off the GPUs).
  PodRole launcher{"mpi", ""};
  launcher.gpus = 0;
  launcher.job_resources = false;
  if (!p.launcher_cpu.empty()) launcher.resources.push_back({"cpu", p.launcher_cpu});
  if (!p.launcher_memory.empty()) launcher.resources.push_back({"memory", p.launcher_memory});
  v["launcher_template_json"] = pod_template(p, t, launcher);
  PodRole worker{"mpi", ""};
  worker.run_command = false;  // workers run the image's entrypoint (sshd); the launcher runs mpirun
  if (p.gputopology) {
    worker.extra_labels = {{"gpu-topology", p.name}, {"gpu-topology-replica", std::to_string(p.workers)}};
  }
  v["worker_template_json"] = pod_template(p, t, worker);
  return one_object(t, p.template_kind, "job.yaml", v);
}

json volcano_job(const Plan& p, const render::TemplateSet& t) {
  json v = job_values(p);
  v["scheduler"] = p.scheduler;
  v["min_available"] = p.min_available;
  v["queue"] = p.queue;
  // volcano's mutating webhook turns maxRetry 0 into its default 3 (pkg/webhooks/admission/jobs/
  // mutate/mutate_job.go patchDefaultMaxRetry): only a positive count is sent.
  v["max_retry"] = p.retry && *p.retry > 0 ? json(*p.retry) : json();
  v["priority_class"] = or_null(p.priority);
  v["policies"] = policy_list(p.policies);
  json tasks = json::array();
  for (size_t i = 0; i < p.tasks.size(); ++i) {
    const Task& task = p.tasks[i];
    PodRole role{task.name, "Never", task.image, true, task.command};
    role.job_info_env = false;
    for (const auto& l : task.labels) role.extra_labels[l.key] = l.value;
    // Arena's volcanojob chart labels the first task's pods; its get/logs take them as chief.
    if (i == 0) role.extra_labels["volcano-role"] = "driver";
    tasks.push_back({{"name", task.name},
                     {"replicas", task.replicas},
                     {"policies", policy_list(task.policies)},
                     {"template_json", pod_template(p, t, role)}});
  }
  v["tasks"] = tasks;
  return one_object(t, p.template_kind, "job.yaml", v);
}

// The environment the training-operator v1.9 gives every container of a PyTorchJob with a
// Master (pkg/controller.v1/pytorch/envvar.go setPodEnv, master.go), for a job whose pod I is
// node I: one training script runs the same with and without the operator. RANK and
// PET_NODE_RANK are the completion index (the operator's worker index + 1).
json operator_free_job(const Plan& p, const render::TemplateSet& t) {
  json v = job_values(p);
  PodRole role{"pytorch", "Never"};
  role.subdomain = p.name;
  const std::string index_path = "metadata.annotations['batch.kubernetes.io/job-completion-index']";
  const std::string master = p.name + "-0." + p.name;
  const std::string port = std::to_string(p.master_port);
  // pytorch_defaults.go: nprocPerNode defaults to "auto"; WORLD_SIZE counts it when it is a
  // number (getNprocPerNodeInt), else one process per node.
  const std::string nproc = p.nproc_per_node.empty() ? "auto" : p.nproc_per_node;
  const bool numeric = nproc.find_first_not_of("0123456789") == std::string::npos;
  const long long world = static_cast<long long>(p.workers) * (numeric ? std::stoll(nproc) : 1);
  role.extra_env = json::array({{{"name", "PYTHONUNBUFFERED"}, {"value", "1"}},
                                {{"name", "MASTER_PORT"}, {"value", port}},
                                {{"name", "PET_MASTER_PORT"}, {"value", port}},
                                {{"name", "MASTER_ADDR"}, {"value", master}},
                                {{"name", "PET_MASTER_ADDR"}, {"value", master}},
                                {{"name", "WORLD_SIZE"}, {"value", std::to_string(world)}},
                                {{"name", "PET_NPROC_PER_NODE"}, {"value", nproc}},
                                {{"name", "PET_NNODES"}, {"value", std::to_string(p.workers)}}});
  role.extra_env_fields = json::array({{{"name", "RANK"}, {"field_path", index_path}},
                                       {{"name", "PET_NODE_RANK"}, {"field_path", index_path}}});
  v["pod_template_json"] = pod_template(p, t, role);
  return one_object(t, p.template_kind, "job.yaml", v);
}

json headless_service(const Plan& p, const render::TemplateSet& t) {
  json v = {{"name", p.name}, {"namespace", p.namespace_}, {"master_port", p.master_port}};
  v["labels"] = kv_list(object_labels(p, standard_labels_for_pods(p)));
  v["selector"] = kv_list({{"app", p.kind->type}, {"release", p.name}, {"trainctl.io/operator", "none"}});
  return one_object(t, p.template_kind, "service.yaml", v);
}

// Labels of the pod TensorBoard's logs are written next to (the chief).
std::vector<KeyValue> chief_pod_labels(const Plan& p) {
  switch (p.kind->trainer) {
    case jobs::Trainer::MPI:
      return {{"training.kubeflow.org/job-name", p.name},
              {"training.kubeflow.org/job-role", "worker"},
              {"training.kubeflow.org/replica-index", "0"}};
    case jobs::Trainer::PyTorchNoOperator:
      // The legacy job-name label is on a Job's pods in every Kubernetes release; the
      // completion-index label came with 1.28 (server_facts.h), before it any pod is followed.
      if (!p.pod_index_label) return {{"job-name", p.name}};
      return {{"job-name", p.name}, {"batch.kubernetes.io/job-completion-index", "0"}};
    default:
      return {{"training.kubeflow.org/job-name", p.name}, {"training.kubeflow.org/replica-type", "master"}};
  }
}

std::vector<json> tensorboard(const Plan& p, const render::TemplateSet& t) {
  std::vector<KeyValue> standard = standard_labels(p);
  standard.push_back({"role", "tensorboard"});
  json v = {{"name", p.name + "-tensorboard"},
            {"namespace", p.namespace_},
            {"image", p.tensorboard_image},
            {"logdir", p.logdir}};
  v["labels"] = kv_list(object_labels(p, standard));
  v["selector"] = kv_list({{"role", "tensorboard"}, {"release", p.name}, {"app", p.kind->type}});
  v["node_selector"] = p.selectors.empty() ? json() : kv_list(p.selectors);
  v["tolerations_json"] = p.tolerations.empty() ? json() : p.tolerations;
  json secrets = json::array();
  for (const auto& s : p.image_pull_secrets) secrets.push_back({{"name", s}});
  v["image_pull_secrets"] = secrets.empty() ? json() : secrets;
  json mounts = json::array();
  if (p.logdir_remote) {
    // TensorBoard reads the store itself: nothing to mount, no node to follow.
  } else if (p.logdir_on_data) {
    json pvcs = json::array();
    for (const auto& d : p.data) {
      pvcs.push_back({{"name", d.pvc}, {"claim", d.pvc}});
      mounts.push_back({{"name", d.pvc}, {"path", d.path}});
    }
    v["pvc_volumes"] = pvcs;
  } else {
    v["host_volumes"] = json::array({{{"name", "training-logs"}, {"path", tensorboard_host_path(p)}}});
    mounts.push_back({{"name", "training-logs"}, {"path", p.logdir}});
    v["affinity"] = json{{"match_labels", kv_list(chief_pod_labels(p))}};
  }
  v["mounts"] = mounts;
  return {one_object(t, p.template_kind, "tensorboard-deployment.yaml", v),
          one_object(t, p.template_kind, "tensorboard-service.yaml", v)};
}

// --config-file: one ConfigMap per container directory.
json config_map(const Plan& p, const ConfigDir& dir, const render::TemplateSet& t) {
  json v = {{"name", dir.config_map}, {"namespace", p.namespace_}};
  v["labels"] = kv_list(object_labels(p, standard_labels(p)));
  json data = json::array(), binary = json::array();
  for (const auto& f : dir.files) {
    if (f.binary)
      binary.push_back({{"key", f.key}, {"value", base64_encode(f.content)}});
    else
      data.push_back({{"key", f.key}, {"value", f.content}});
  }
  v["data"] = data.empty() ? json() : data;
  v["binary_data"] = binary.empty() ? json() : binary;
  return one_object(t, p.template_kind, "configmap.yaml", v);
}

}  // namespace

std::vector<json> build_manifests(const Plan& p, const render::TemplateSet& t) {
  std::vector<json> out;
  switch (p.kind->trainer) {
    case jobs::Trainer::PyTorch:
      out.push_back(pytorch_job(p, t));
      break;
    case jobs::Trainer::MPI:
      out.push_back(mpi_job(p, t));
      break;
    case jobs::Trainer::Volcano:
      out.push_back(volcano_job(p, t));
      break;
    case jobs::Trainer::PyTorchNoOperator:
      out.push_back(operator_free_job(p, t));
      out.push_back(headless_service(p, t));
      break;
  }
  if (p.tensorboard) {
    for (auto& o : tensorboard(p, t)) out.push_back(std::move(o));
  }
  for (const auto& dir : p.config_dirs) out.push_back(config_map(p, dir, t));
  return out;
}

}  // namespace trainctl::submit
