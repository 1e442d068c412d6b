// The Trainer's runtime info of a TrainJob (kubeflow/trainer v2.3.0
// pkg/runtime/core/trainingruntime.go RuntimeInfo, newRuntimeInfo; pkg/runtime/runtime.go
// WithPodSet, PodSet) and the JobSet plugin's pod network (plugins/jobset/jobset.go
// IdentifyPodNetwork).
#include <algorithm>

#include "kubesim/controllers/context.h"
#include "kubesim/controllers/runtime_merge.h"
#include "kubesim/controllers/trainer_build.h"
#include "kubesim/controllers/trainer_model.h"
#include "kubesim/controllers/trainer_plugins.h"

namespace kubesim {

namespace {

json object_at(const json& obj, std::initializer_list<const char*> path) {
  const json* cur = &obj;
  for (const char* k : path) {
    if (!cur->is_object() || !cur->contains(k)) return json::object();
    cur = &(*cur)[k];
  }
  return cur->is_object() ? *cur : json::object();
}

// The runtime's container list in the form of a PodSet (runtime.go toPodSetContainer).
json podset_containers(const json& containers) {
  json out = json::array();
  if (!containers.is_array()) return out;
  for (const auto& c : containers) {
    json pc = {{"name", c.value("name", "")}, {"image", c.value("image", "")}};
    for (const char* k : {"command", "env", "ports", "volumeMounts"})
      pc[k] = c.contains(k) && c[k].is_array() ? c[k] : json::array();
    out.push_back(std::move(pc));
  }
  return out;
}

// k8s.io/component-helpers resource.PodRequests without overhead: the sum of the containers'
// requests, or the largest init container's when larger.
json trainer_pod_requests(const json& pod_spec) {
  std::map<std::string, int64_t> sum, init_max;
  auto add = [](std::map<std::string, int64_t>& into, const json& c, bool max) {
    const json req = object_at(c, {"resources", "requests"});
    for (const auto& [name, q] : req.items()) {
      const int64_t v = name == "cpu" ? parse_cpu_milli(q) : parse_quantity(q);
      into[name] = max ? std::max(into[name], v) : into[name] + v;
    }
  };
  for (const auto& c : pod_spec.value("containers", json::array())) add(sum, c, false);
  for (const auto& c : pod_spec.value("initContainers", json::array())) add(init_max, c, true);
  json out = json::object();
  for (const auto& [k, v] : init_max) sum[k] = std::max(sum[k], v);
  for (const auto& [k, v] : sum) out[k] = v;
  return out;
}

}  // namespace

TrainerPodSet* TrainerInfo::podset_by_ancestor(const std::string& ancestor) {
  for (auto& ps : podsets)
    if (ps.ancestor && *ps.ancestor == ancestor) return &ps;
  return nullptr;
}

TrainerPodSet* TrainerInfo::podset_by_name(const std::string& name) {
  for (auto& ps : podsets)
    if (ps.name == name) return &ps;
  return nullptr;
}

TrainerInfo new_runtime_info(const json& trainjob, const json& runtime_spec) {
  TrainerInfo info;
  const json tmpl = object_at(runtime_spec, {"template"});
  info.labels = object_at(tmpl, {"metadata", "labels"});
  info.annotations = object_at(tmpl, {"metadata", "annotations"});
  const json patches = trainjob.value("spec", json::object()).value("runtimePatches", json::array());
  for (const auto& p : patches) {
    const json md = object_at(p, {"trainingRuntimeSpec", "template", "metadata"});
    const json labels = object_at(md, {"labels"}), annotations = object_at(md, {"annotations"});
    for (const auto& [k, v] : labels.items()) info.labels[k] = v;
    for (const auto& [k, v] : annotations.items()) info.annotations[k] = v;
  }
  info.spec = object_at(tmpl, {"spec"});
  merge_runtime_patches(info.spec, patches);
  info.ml_policy = runtime_spec.contains("mlPolicy") && runtime_spec["mlPolicy"].is_object() ? runtime_spec["mlPolicy"]
                                                                                              : json();
  info.pod_group_policy = runtime_spec.contains("podGroupPolicy") && runtime_spec["podGroupPolicy"].is_object()
                              ? runtime_spec["podGroupPolicy"]
                              : json();
  const json trainer = trainjob.value("spec", json::object()).value("trainer", json());
  const bool has_resources = trainer.is_object() && trainer.contains("resourcesPerNode") &&
                             trainer["resourcesPerNode"].is_object();
  const bool launcher_as_node = info.ml_policy.is_object() && info.ml_policy.contains("mpi") &&
                                object_at(info.ml_policy, {"mpi"}).value("runLauncherAsNode", false);
  if (!info.spec.contains("replicatedJobs") || !info.spec["replicatedJobs"].is_array()) return info;
  for (auto& rj : info.spec["replicatedJobs"]) {
    TrainerPodSet ps;
    ps.name = rj.value("name", "");
    const json job_spec = object_at(rj, {"template", "spec"});
    int64_t count = job_spec.contains("parallelism") ? int_or(job_spec, "parallelism", 1) : 1;
    const json job_labels = object_at(rj, {"template", "metadata", "labels"});
    if (job_labels.contains(kAncestorLabel) && job_labels[kAncestorLabel].is_string()) {
      ps.ancestor = job_labels[kAncestorLabel].get<std::string>();
      if (*ps.ancestor == kAncestorTrainer && info.ml_policy.is_object()) count = int_or(info.ml_policy, "numNodes", 1);
    }
    json& pod_spec = rj["template"]["spec"]["template"]["spec"];
    if (!pod_spec.is_object()) pod_spec = json::object();
    const bool trainer_ancestor = ps.ancestor && *ps.ancestor == kAncestorTrainer && info.ml_policy.is_object();
    if (has_resources && (trainer_ancestor || (launcher_as_node && ps.name == kNodeName)) &&
        pod_spec.contains("containers") && pod_spec["containers"].is_array())
      for (auto& c : pod_spec["containers"])
        if (c.value("name", "") == kNodeName) {
          json merged = merge_resource_requirements(c.value("resources", json::object()), trainer["resourcesPerNode"]);
          for (const char* k : {"limits", "requests"})
            if (merged.contains(k))
              for (auto& [name, q] : merged[k].items()) q = canonical_quantity(q);
          c["resources"] = merged;
          break;
        }
    ps.count = std::max<int64_t>(count, 1);
    ps.volumes = pod_spec.value("volumes", json::array());
    ps.single_pod_requests = trainer_pod_requests(pod_spec);
    ps.containers = podset_containers(pod_spec.value("containers", json::array()));
    ps.init_containers = podset_containers(pod_spec.value("initContainers", json::array()));
    info.podsets.push_back(std::move(ps));
  }
  return info;
}

TrainerInfo runtime_info(const json& trainjob, const json& runtime_spec, const TrainerOptions& options) {
  TrainerInfo info = new_runtime_info(trainjob, runtime_spec);
  enforce_ml_policy(info, trainjob, options);
  enforce_pod_group_policy(info, trainjob);
  // jobset.go IdentifyPodNetwork: the subdomain is the runtime's network.subdomain, else the
  // TrainJob's name; every pod of every replica of every replicated job.
  const std::string name = meta_name(trainjob);
  std::string subdomain = object_at(info.spec, {"network"}).value("subdomain", "");
  if (subdomain.empty()) subdomain = name;
  const json& rjobs = info.spec.value("replicatedJobs", json::array());
  for (size_t i = 0; i < info.podsets.size() && i < rjobs.size(); ++i) {
    const int64_t replicas = int_or(rjobs[i], "replicas", 1);
    for (int64_t r = 0; r < replicas; ++r)
      for (int64_t p = 0; p < info.podsets[i].count; ++p)
        info.podsets[i].endpoints.push_back(name + "-" + rjobs[i].value("name", "") + "-" + std::to_string(r) + "-" +
                                            std::to_string(p) + "." + subdomain);
  }
  return info;
}

}  // namespace kubesim
