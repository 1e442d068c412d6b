// The objects the Trainer's component builders build (kubeflow/trainer v2.3.0
// pkg/runtime/framework/plugins/jobset/jobset.go SyncParallelCount and Build, builder.go
// Initializer, Trainer, PodLabels, PodAnnotations, Suspend; mpi/mpi.go Build; volcano/volcano.go
// and coscheduling/coscheduling.go Build; trainjobstatus/trainjobstatus.go Build).
#include <openssl/evp.h>

#include "core/base64.h"
#include "kubesim/controllers/context.h"
#include "kubesim/controllers/ssh_keys.h"
#include "kubesim/controllers/trainer_build.h"
#include "kubesim/controllers/trainer_model.h"
#include "kubesim/controllers/trainer_plugins.h"

namespace kubesim {

namespace {

json& pod_spec_of(json& rj) {
  json& spec = rj["template"]["spec"]["template"]["spec"];
  if (!spec.is_object()) spec = json::object();
  return spec;
}

std::string ancestor_of(const json& rj) {
  return rj.value("template", json::object())
      .value("metadata", json::object())
      .value("labels", json::object())
      .value(kAncestorLabel, "");
}

// The PodSet's containers into the pod template's, index for index (jobset.go Build).
void apply_containers(json& list, const json& podset_containers, bool append_slots) {
  if (!list.is_array()) list = json::array();
  for (size_t i = 0; i < podset_containers.size(); ++i) {
    const json& c = podset_containers[i];
    if (i >= list.size()) {
      if (!append_slots) break;
      list.push_back({{"name", c.value("name", "")}});
    }
    json& target = list[i];
    if (!c.value("command", json::array()).empty()) target["command"] = c["command"];
    if (!c.value("image", "").empty()) target["image"] = c["image"];
    for (const auto& e : c.value("env", json::array())) upsert_by(target["env"], e, "name");
    for (const auto& p : c.value("ports", json::array())) upsert_by(target["ports"], p, "containerPort", "name");
    for (const auto& m : c.value("volumeMounts", json::array())) upsert_by(target["volumeMounts"], m, "mountPath");
    for (const char* k : {"env", "ports", "volumeMounts"})
      if (target.contains(k) && target[k].empty()) target.erase(k);
  }
}

// builder.go Initializer: the dataset or model initializer's STORAGE_URI, env and secretRef.
void apply_initializer(json& rj, const json& init, const char* name) {
  rj["replicas"] = 1;
  if (!init.is_object()) return;
  for (auto& c : pod_spec_of(rj)["containers"]) {
    if (c.value("name", "") != name) continue;
    if (init.contains("storageUri") && init["storageUri"].is_string())
      upsert_by(c["env"], {{"name", "STORAGE_URI"}, {"value", init["storageUri"]}}, "name");
    for (const auto& e : init.value("env", json::array())) upsert_by(c["env"], e, "name");
    if (init.contains("secretRef") && init["secretRef"].is_object())
      c["envFrom"].push_back({{"secretRef", {{"name", init["secretRef"].value("name", "")}}}});
  }
}

void canonical_resources(json& pod_spec) {
  for (const char* list : {"containers", "initContainers"}) {
    if (!pod_spec.contains(list) || !pod_spec[list].is_array()) continue;
    for (auto& c : pod_spec[list]) {
      if (!c.contains("resources") || !c["resources"].is_object()) continue;
      for (const char* k : {"limits", "requests"})
        if (c["resources"].contains(k) && c["resources"][k].is_object())
          for (auto& [name, q] : c["resources"][k].items()) q = canonical_quantity(q);
    }
  }
}

json owner_ref(const json& tj) {
  return {{"apiVersion", kTrainerApiVersion}, {"kind", "TrainJob"},       {"name", meta_name(tj)},
          {"uid", meta_uid(tj)},              {"controller", true}, {"blockOwnerDeletion", true}};
}

json owned(const std::string& api_version, const std::string& kind, const std::string& name, const json& tj) {
  return {{"apiVersion", api_version},
          {"kind", kind},
          {"metadata", {{"name", name}, {"namespace", meta_ns(tj)}, {"ownerReferences", json::array({owner_ref(tj)})}}}};
}

// A resource.Quantity sum as Quantity.String() writes it (CPU in millicores, the rest in units,
// binary suffixes where exact).
std::string quantity_string(const std::string& resource, int64_t v) {
  if (resource == "cpu") return v % 1000 == 0 ? std::to_string(v / 1000) : std::to_string(v) + "m";
  for (const auto& [suffix, unit] : {std::pair{"Ti", int64_t{1} << 40}, {"Gi", int64_t{1} << 30}, {"Mi", int64_t{1} << 20}})
    if (v != 0 && v % unit == 0) return std::to_string(v / unit) + suffix;
  return std::to_string(v);
}

}  // namespace

json build_trainer_jobset(TrainerInfo& info, const json& tj) {
  json spec = info.spec;
  json& rjobs = spec["replicatedJobs"];
  if (!rjobs.is_array()) rjobs = json::array();
  for (const auto& ps : info.podsets)  // SyncParallelCount
    for (auto& rj : rjobs)
      if (rj.value("name", "") == ps.name) {
        rj["template"]["spec"]["parallelism"] = ps.count;
        rj["template"]["spec"]["completions"] = ps.count;
        break;
      }
  if (rjobs.size() < info.podsets.size())
    throw TrainerError("runtime template has " + std::to_string(rjobs.size()) + " replicatedJobs but runtime info has " +
                       std::to_string(info.podsets.size()) + " podSets");
  for (size_t i = 0; i < info.podsets.size(); ++i) {
    const TrainerPodSet& ps = info.podsets[i];
    json& pod = pod_spec_of(rjobs[i]);
    for (const auto& v : ps.volumes) upsert_by(pod["volumes"], v, "name");
    if (pod.contains("volumes") && pod["volumes"].empty()) pod.erase("volumes");
    apply_containers(pod["containers"], ps.containers, false);
    if (!ps.init_containers.empty()) apply_containers(pod["initContainers"], ps.init_containers, true);
  }
  const json tspec = tj.value("spec", json::object());
  const json trainer = tspec.value("trainer", json());
  const json init = tspec.value("initializer", json::object());
  const bool as_node = info.ml_policy.is_object() && info.ml_policy.contains("mpi") &&
                       info.ml_policy["mpi"].value("runLauncherAsNode", false);
  for (auto& rj : rjobs) {
    const std::string ancestor = ancestor_of(rj);
    if (ancestor == kDatasetInitializer) apply_initializer(rj, init.value("dataset", json()), kDatasetInitializer);
    if (ancestor == kModelInitializer) apply_initializer(rj, init.value("model", json()), kModelInitializer);
    if (ancestor == kAncestorTrainer) {
      rj["replicas"] = 1;
      if (trainer.is_object())
        for (auto& c : pod_spec_of(rj)["containers"]) {
          if (c.value("name", "") != kNodeName) continue;
          if (trainer.contains("image") && trainer["image"].is_string()) c["image"] = trainer["image"];
          for (const char* k : {"command", "args"})
            if (trainer.contains(k) && trainer[k].is_array()) c[k] = trainer[k];
        }
    }
    if ((ancestor == kAncestorTrainer || (as_node && rj.value("name", "") == kNodeName)) && trainer.is_object())
      for (auto& c : pod_spec_of(rj)["containers"])
        if (c.value("name", "") == kNodeName)
          for (const auto& e : trainer.value("env", json::array())) upsert_by(c["env"], trainer_apply_env_var(e), "name");
    json& pod_meta = rj["template"]["spec"]["template"]["metadata"];
    for (const auto& [k, v] : info.pod_labels.items()) pod_meta["labels"][k] = v;
    for (const auto& [k, v] : info.pod_annotations.items()) pod_meta["annotations"][k] = v;
    if (pod_meta.is_null()) rj["template"]["spec"]["template"].erase("metadata");
    canonical_resources(pod_spec_of(rj));
  }
  if (tspec.contains("suspend")) spec["suspend"] = tspec["suspend"];
  json js = owned(kJobSetApiVersion, "JobSet", meta_name(tj), tj);
  if (!info.labels.empty()) js["metadata"]["labels"] = info.labels;
  if (!info.annotations.empty()) js["metadata"]["annotations"] = info.annotations;
  js["spec"] = std::move(spec);
  return js;
}

std::vector<json> build_trainer_extras(const TrainerInfo& info, const json& tj, const TrainerOptions& options,
                                       bool ssh_secret) {
  std::vector<json> out;
  const std::string name = meta_name(tj);
  if (info.pod_group_policy.is_object() && info.pod_group_policy.contains("coscheduling"))
    throw TrainerError("no matches for kind \"PodGroup\" in version \"scheduling.x-k8s.io/v1alpha1\"");
  if (info.pod_group_policy.is_object() && info.pod_group_policy.contains("volcano")) {
    int64_t members = 0;
    std::map<std::string, int64_t> total;
    for (const auto& ps : info.podsets) {
      members += ps.count;
      for (const auto& [r, v] : ps.single_pod_requests.items()) total[r] += v.get<int64_t>() * ps.count;
    }
    json min_resources = json::object();
    for (const auto& [r, v] : total) min_resources[r] = quantity_string(r, v);
    json pg = owned("scheduling.volcano.sh/v1beta1", "PodGroup", name, tj);
    pg["spec"] = {{"minMember", members}, {"minResources", min_resources}};
    if (info.annotations.contains("scheduling.volcano.sh/queue-name"))
      pg["spec"]["queue"] = info.annotations["scheduling.volcano.sh/queue-name"];
    for (const auto& rj : info.spec.value("replicatedJobs", json::array())) {
      const json pod = rj.value("template", json::object()).value("spec", json::object()).value("template", json::object());
      const std::string pc = pod.value("spec", json::object()).value("priorityClassName", "");
      if (!pc.empty()) pg["spec"]["priorityClassName"] = pc;
    }
    const json topo = info.pod_group_policy["volcano"].value("networkTopology", json());
    if (topo.is_object())
      pg["spec"]["networkTopology"] = {{"mode", topo.value("mode", "hard")},
                                       {"highestTierAllowed", topo.value("highestTierAllowed", 1)}};
    out.push_back(std::move(pg));
  }
  if (options.trainjob_status) {
    // The CA of the Trainer's webhook certificate (Secret kubeflow-trainer-webhook-cert in the
    // operator's namespace); kubesim has no such Secret and writes its own marker text.
    json cm = owned("v1", "ConfigMap", name + "-tls-config", tj);
    cm["data"] = {{"ca.crt", "-----BEGIN CERTIFICATE-----\nkubesim: the Trainer status server's CA\n-----END CERTIFICATE-----\n"}};
    out.push_back(std::move(cm));
  }
  if (info.ml_policy.is_object() && info.ml_policy.contains("mpi")) {
    const json& policy = info.ml_policy["mpi"];
    if (ssh_secret) {
      const SshKeyPair keys = ecdsa_p521_ssh_key();
      json secret = owned("v1", "Secret", name + "-mpi-ssh-auth", tj);
      secret["type"] = "kubernetes.io/ssh-auth";
      secret["immutable"] = true;
      secret["data"] = {{"ssh-privatekey", trainctl::base64_encode(keys.private_pem)},
                        {"ssh-publickey", trainctl::base64_encode(keys.authorized_key)}};
      out.push_back(std::move(secret));
    }
    const bool as_node = policy.value("runLauncherAsNode", false);
    const std::string slots = std::to_string(policy.value("numProcPerNode", 1));
    std::string hostfile;
    for (const auto& ps : info.podsets)
      if ((as_node && ps.name == kLauncherName) || ps.name == kNodeName)
        for (const auto& e : ps.endpoints) hostfile += e + " slots=" + slots + "\n";
    json cm = owned("v1", "ConfigMap", name + "-mpi-hostfile", tj);
    cm["data"] = {{"hostfile", hostfile}};
    out.push_back(std::move(cm));
  }
  return out;
}

}  // namespace kubesim
