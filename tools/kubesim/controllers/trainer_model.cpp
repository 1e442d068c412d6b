// Shared parts of kubesim's Trainer and JobSet (see trainer_model.h).
#include "kubesim/controllers/trainer_model.h"

#include <cmath>
#include <cstdio>
#include <map>

#include "kubesim/controllers/context.h"

namespace kubesim {

namespace {

// json["a"]["b"] = v when absent (creating the objects on the way).
void default_at(json& obj, std::initializer_list<const char*> path, const json& v) {
  json* cur = &obj;
  size_t i = 0;
  for (const char* key : path) {
    if (!cur->is_object()) return;
    if (++i == path.size()) {
      if (!cur->contains(key) || (*cur)[key].is_null()) (*cur)[key] = v;
      return;
    }
    if (!cur->contains(key) || (*cur)[key].is_null()) (*cur)[key] = json::object();
    cur = &(*cur)[key];
  }
}

// Ports get protocol TCP (the CRDs' default for containers[].ports[].protocol).
void default_ports(json& pod_spec) {
  for (const char* list : {"containers", "initContainers"}) {
    if (!pod_spec.contains(list) || !pod_spec[list].is_array()) continue;
    for (auto& c : pod_spec[list]) {
      if (!c.is_object() || !c.contains("ports") || !c["ports"].is_array()) continue;
      for (auto& p : c["ports"])
        if (p.is_object() && !p.contains("protocol")) p["protocol"] = "TCP";
    }
  }
}

}  // namespace

void default_jobset_crd(json& spec) {
  if (!spec.is_object()) return;
  if (spec.contains("replicatedJobs") && spec["replicatedJobs"].is_array())
    for (auto& rj : spec["replicatedJobs"]) {
      if (!rj.is_object()) continue;
      default_at(rj, {"replicas"}, 1);
      default_at(rj, {"groupName"}, "default");
      if (rj.contains("template") && rj["template"].is_object()) {
        json& job = rj["template"];
        if (job.contains("spec") && job["spec"].contains("template") && job["spec"]["template"].contains("spec"))
          default_ports(job["spec"]["template"]["spec"]);
      }
    }
  if (spec.contains("failurePolicy") && spec["failurePolicy"].is_object())
    default_at(spec, {"failurePolicy", "restartStrategy"}, "Recreate");
  if (spec.contains("volumeClaimPolicies") && spec["volumeClaimPolicies"].is_array())
    for (auto& p : spec["volumeClaimPolicies"])
      if (p.is_object()) default_at(p, {"retentionPolicy", "whenDeleted"}, "Delete");
}

TrainerTypes TrainerTypes::find(const Store& store) {
  TrainerTypes t;
  t.trainjobs = store.find(kTrainerGroup, "v1alpha1", "trainjobs");
  t.trainingruntimes = store.find(kTrainerGroup, "v1alpha1", "trainingruntimes");
  t.clustertrainingruntimes = store.find(kTrainerGroup, "v1alpha1", "clustertrainingruntimes");
  t.jobsets = store.find("jobset.x-k8s.io", "v1alpha2", "jobsets");
  t.jobs = store.find("batch", "v1", "jobs");
  t.pods = store.find("", "v1", "pods");
  t.services = store.find("", "v1", "services");
  t.configmaps = store.find("", "v1", "configmaps");
  t.secrets = store.find("", "v1", "secrets");
  t.events = store.find("", "v1", "events");
  t.vc_podgroups = store.find("scheduling.volcano.sh", "v1beta1", "podgroups");
  t.priorityclasses = store.find("scheduling.k8s.io", "v1", "priorityclasses");
  return t;
}

json trainjob_with_defaults(json tj) {
  if (!tj.is_object()) return tj;
  if (!tj.contains("spec") || !tj["spec"].is_object()) tj["spec"] = json::object();
  json& spec = tj["spec"];
  // trainjob_types.go: kubebuilder defaults of RuntimeRef.APIGroup and Kind, Suspend, ManagedBy.
  if (spec.contains("runtimeRef") && spec["runtimeRef"].is_object()) {
    default_at(spec, {"runtimeRef", "apiGroup"}, kTrainerGroup);
    default_at(spec, {"runtimeRef", "kind"}, "ClusterTrainingRuntime");
  }
  default_at(spec, {"suspend"}, false);
  default_at(spec, {"managedBy"}, kTrainJobController);
  return tj;
}

json runtime_with_defaults(json rt) {
  if (!rt.is_object() || !rt.contains("spec") || !rt["spec"].is_object()) return rt;
  json& spec = rt["spec"];
  // trainingruntime_types.go MPIMLPolicySource, CoschedulingPodGroupPolicySource defaults.
  if (spec.contains("mlPolicy") && spec["mlPolicy"].is_object()) {
    json& ml = spec["mlPolicy"];
    if (ml.contains("mpi") && ml["mpi"].is_object()) {
      default_at(ml, {"mpi", "numProcPerNode"}, 1);
      default_at(ml, {"mpi", "mpiImplementation"}, "OpenMPI");
      default_at(ml, {"mpi", "sshAuthMountPath"}, "/root/.ssh");
      default_at(ml, {"mpi", "runLauncherAsNode"}, false);
    }
    if (ml.contains("flux") && ml["flux"].is_object()) default_at(ml, {"flux", "numProcPerNode"}, 1);
  }
  if (spec.contains("podGroupPolicy") && spec["podGroupPolicy"].is_object()) {
    json& pg = spec["podGroupPolicy"];
    if (pg.contains("coscheduling") && pg["coscheduling"].is_object())
      default_at(pg, {"coscheduling", "scheduleTimeoutSeconds"}, 60);
  }
  if (spec.contains("template") && spec["template"].is_object() && spec["template"].contains("spec"))
    default_jobset_crd(spec["template"]["spec"]);
  return rt;
}

void default_jobset_spec(json& spec) {
  if (!spec.is_object()) return;
  default_jobset_crd(spec);
  // jobset_webhook.go Default.
  default_at(spec, {"successPolicy"}, {{"operator", "All"}});
  default_at(spec, {"startupPolicy"}, {{"startupPolicyOrder", "AnyOrder"}});
  if (spec.contains("replicatedJobs") && spec["replicatedJobs"].is_array())
    for (auto& rj : spec["replicatedJobs"]) {
      if (!rj.is_object()) continue;
      default_at(rj, {"template", "spec", "completionMode"}, "Indexed");
      json& pod = rj["template"]["spec"]["template"];
      if (!pod.is_object()) pod = json::object();
      if (!pod.contains("spec") || !pod["spec"].is_object()) pod["spec"] = json::object();
      if (pod["spec"].value("restartPolicy", "").empty()) pod["spec"]["restartPolicy"] = "OnFailure";
    }
  default_at(spec, {"network", "enableDNSHostnames"}, true);
  default_at(spec, {"network", "publishNotReadyAddresses"}, true);
  if (spec.contains("failurePolicy") && spec["failurePolicy"].is_object() &&
      spec["failurePolicy"].contains("rules") && spec["failurePolicy"]["rules"].is_array()) {
    size_t i = 0;
    for (auto& rule : spec["failurePolicy"]["rules"]) {
      if (rule.is_object() && rule.value("name", "").empty()) rule["name"] = "failurePolicyRule" + std::to_string(i);
      ++i;
    }
  }
}

void default_runtime_patch_times(json& tj, const json* old, const std::string& now) {
  json& patches = tj["spec"]["runtimePatches"];
  if (!patches.is_array()) {
    if (patches.is_null()) tj["spec"].erase("runtimePatches");
    return;
  }
  std::map<std::string, json> before;
  if (old)
    for (const auto& p : old->value("spec", json::object()).value("runtimePatches", json::array())) before[p.value("manager", "")] = p;
  for (auto& p : patches) {
    if (!p.is_object()) continue;
    auto it = before.find(p.value("manager", ""));
    if (!old || it == before.end()) {
      if (!p.contains("time")) p["time"] = now;
      continue;
    }
    json a = it->second, b = p;
    a.erase("time");
    b.erase("time");
    if (a == b) {
      if (it->second.contains("time")) p["time"] = it->second["time"];
      else p.erase("time");
    } else {
      p["time"] = now;
    }
  }
}

std::string runtime_registry_key(const json& ref) {
  const std::string group = ref.is_object() ? ref.value("apiGroup", "") : "";
  const std::string kind = ref.is_object() ? ref.value("kind", "") : "";
  return group.empty() ? kind : kind + "." + group;
}

bool is_supported_runtime_key(const std::string& key) {
  return key == "TrainingRuntime.trainer.kubeflow.org" || key == "ClusterTrainingRuntime.trainer.kubeflow.org";
}

bool set_meta_condition(json& conditions, json cond, const std::string& now) {
  if (!conditions.is_array()) conditions = json::array();
  const std::string type = cond.value("type", "");
  for (auto& c : conditions) {
    if (c.value("type", "") != type) continue;
    bool changed = false;
    if (c.value("status", "") != cond.value("status", "")) {
      c["status"] = cond["status"];
      c["lastTransitionTime"] = cond.value("lastTransitionTime", "").empty() ? json(now) : cond["lastTransitionTime"];
      changed = true;
    }
    for (const char* k : {"reason", "message"})
      if (c.value(k, "") != cond.value(k, "")) {
        c[k] = cond.value(k, "");
        changed = true;
      }
    if (c.value("observedGeneration", 0) != cond.value("observedGeneration", 0)) {
      if (cond.value("observedGeneration", 0) == 0) c.erase("observedGeneration");
      else c["observedGeneration"] = cond["observedGeneration"];
      changed = true;
    }
    return changed;
  }
  if (cond.value("lastTransitionTime", "").empty()) cond["lastTransitionTime"] = now;
  conditions.push_back(std::move(cond));
  return true;
}

void remove_meta_condition(json& conditions, const std::string& type) {
  if (!conditions.is_array()) return;
  json out = json::array();
  for (auto& c : conditions)
    if (c.value("type", "") != type) out.push_back(std::move(c));
  conditions = std::move(out);
}

void upsert_by(json& list, const json& item, const char* key, const char* alt_key) {
  if (!list.is_array()) list = json::array();
  for (auto& e : list) {
    if (!e.is_object()) continue;
    const bool same = (e.contains(key) && item.contains(key) && e[key] == item[key]) ||
                      (alt_key && e.contains(alt_key) && item.contains(alt_key) && e[alt_key] == item[alt_key]);
    if (same) {
      e = item;
      return;
    }
  }
  list.push_back(item);
}

json canonical_quantity(const json& q) {
  double v = 0;
  if (q.is_number()) {
    v = q.get<double>();
  } else if (q.is_string()) {
    const std::string s = q.get<std::string>();
    if (s.find('.') == std::string::npos || s.find_first_not_of("0123456789.") != std::string::npos) return q;
    try {
      v = std::stod(s);
    } catch (...) {
      return q;
    }
  } else {
    return q;
  }
  if (std::floor(v) == v) return std::to_string(static_cast<long long>(v));
  return std::to_string(static_cast<long long>(std::llround(v * 1000))) + "m";
}

}  // namespace kubesim
