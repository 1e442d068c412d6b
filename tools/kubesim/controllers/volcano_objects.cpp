// The objects volcano v1.15.1's Job controller creates: pods (pkg/controllers/job/
// job_controller_util.go createJobPod, plugins/env/env.go, plugins/svc/svc.go OnPodCreate),
// the PodGroup (job_controller_actions.go createOrUpdatePodGroup) and the svc plugin's
// Service and ConfigMap (plugins/svc/svc.go OnJobAdd, GenerateHosts); and the webhook
// defaults (pkg/webhooks/admission/jobs/mutate/mutate_job.go).
#include <cctype>

#include "kubesim/controllers/volcano_job.h"

namespace kubesim {

namespace {

std::string upper(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::string underscores(std::string s) {
  for (auto& c : s)
    if (c == '-') c = '_';
  return s;
}

bool has_plugin(const json& job, const std::string& name) {
  return job["spec"].value("plugins", json::object()).contains(name);
}

void append_env(json& pod_spec, const char* list, const json& vars) {
  if (!pod_spec.contains(list) || !pod_spec[list].is_array()) return;
  for (auto& c : pod_spec[list]) {
    if (!c.contains("env") || !c["env"].is_array()) c["env"] = json::array();
    for (const auto& v : vars) c["env"].push_back(v);
  }
}

}  // namespace

json VolcanoJobController::defaults(const json& job) {
  json out = job;
  if (!out.contains("spec") || !out["spec"].is_object()) out["spec"] = json::object();
  json& spec = out["spec"];
  if (spec.value("queue", "").empty()) spec["queue"] = "default";
  if (spec.value("schedulerName", "").empty()) spec["schedulerName"] = "volcano";
  if (int_or(spec, "maxRetry", 0) == 0) spec["maxRetry"] = 3;
  if (!spec.contains("tasks") || !spec["tasks"].is_array()) spec["tasks"] = json::array();
  int64_t min_sum = 0;
  for (size_t i = 0; i < spec["tasks"].size(); ++i) {
    json& t = spec["tasks"][i];
    if (t.value("name", "").empty()) t["name"] = "default" + std::to_string(i);
    if (!t.contains("replicas")) t["replicas"] = 0;
    if (!t.contains("minAvailable") || t["minAvailable"].is_null()) t["minAvailable"] = t["replicas"];
    if (int_or(t, "maxRetry", 0) == 0) t["maxRetry"] = 3;
    min_sum += int_or(t, "minAvailable", 0);
  }
  if (int_or(spec, "minAvailable", 0) == 0) spec["minAvailable"] = min_sum;
  // patchDefaultPlugins: the tensorflow/mpi/pytorch/ray plugins need svc; mpi needs ssh.
  if (spec.contains("plugins") && spec["plugins"].is_object()) {
    json& pl = spec["plugins"];
    if ((pl.contains("tensorflow") || pl.contains("mpi") || pl.contains("pytorch") || pl.contains("ray")) &&
        !pl.contains("svc"))
      pl["svc"] = json::array();
    if (pl.contains("mpi") && !pl.contains("ssh")) pl["ssh"] = json::array();
  }
  return out;
}

std::string VolcanoJobController::pod_group_name(const json& job) {
  return meta_name(job) + "-" + meta_uid(job);
}

json VolcanoJobController::make_pod(const json& job, const json& task, int index) {
  const std::string jname = meta_name(job), tname = task.value("name", "");
  const std::string name = jname + "-" + tname + "-" + std::to_string(index);
  const std::string idx = std::to_string(index);
  const json& spec_j = job["spec"];
  const json status = job.value("status", json::object());
  json tmpl = task.value("template", json::object());
  json meta = tmpl.value("metadata", json::object());
  meta.erase("creationTimestamp");
  // The template's own labels and annotations, then Volcano's.
  json ann = meta.value("annotations", json::object());
  ann["volcano.sh/task-index"] = idx;
  ann["volcano.sh/task-spec"] = tname;
  ann["scheduling.k8s.io/group-name"] = pod_group_name(job);
  ann["volcano.sh/job-name"] = jname;
  ann["volcano.sh/queue-name"] = spec_j.value("queue", "default");
  ann["volcano.sh/job-version"] = std::to_string(int_or(status, "version", 0));
  ann["volcano.sh/template-uid"] = jname + "-" + tname;
  ann["volcano.sh/job-retry-count"] = std::to_string(int_or(status, "retryCount", 0));
  for (const char* k : {"volcano.sh/preemptable", "volcano.sh/cooldown-time", "volcano.sh/revocable-zone",
                        "volcano.sh/jdb-min-available", "volcano.sh/jdb-max-unavailable"}) {
    const std::string v = annotation(job, k);
    if (!v.empty()) ann[k] = v;
  }
  json labels = meta.value("labels", json::object());
  labels["volcano.sh/task-index"] = idx;
  labels["volcano.sh/job-name"] = jname;
  labels["volcano.sh/task-spec"] = tname;
  labels["volcano.sh/job-namespace"] = meta_ns(job);
  labels["volcano.sh/queue-name"] = spec_j.value("queue", "default");
  for (const char* k : {"volcano.sh/preemptable", "volcano.sh/cooldown-time"}) {
    const std::string v = label(job, k);
    if (!v.empty()) labels[k] = v;
  }
  meta["labels"] = labels;
  meta["annotations"] = ann;
  meta["name"] = name;
  meta["namespace"] = meta_ns(job);
  meta["ownerReferences"] = json::array({owner_reference(job)});
  inherit_sim_annotations(job, meta);

  json spec = tmpl.value("spec", json::object());
  if (spec.value("schedulerName", "").empty())
    spec["schedulerName"] = spec_j.value("schedulerName", "volcano");
  if (spec.value("priorityClassName", "").empty() && !spec_j.value("priorityClassName", "").empty())
    spec["priorityClassName"] = spec_j["priorityClassName"];
  if (has_plugin(job, "env"))
    for (const char* list : {"containers", "initContainers"})
      append_env(spec, list,
                 json::array({{{"name", "VK_TASK_INDEX"}, {"value", idx}},
                              {{"name", "VC_TASK_INDEX"}, {"value", idx}}}));
  if (has_plugin(job, "svc")) {
    if (spec.value("hostname", "").empty()) spec["hostname"] = name;
    if (spec.value("subdomain", "").empty()) spec["subdomain"] = jname;
    json host_env = json::array();
    const std::string cm = jname + "-svc";
    for (const auto& t : spec_j["tasks"]) {
      const std::string key = upper(underscores(t.value("name", "")));
      for (const std::string& n : {"VC_" + key + "_HOSTS", "VC_" + key + "_NUM"})
        host_env.push_back({{"name", n}, {"valueFrom", {{"configMapKeyRef", {{"name", cm}, {"key", n}}}}}});
    }
    for (const char* list : {"containers", "initContainers"}) {
      append_env(spec, list, host_env);
      if (!spec.contains(list) || !spec[list].is_array()) continue;
      for (auto& c : spec[list]) {
        if (!c.contains("volumeMounts") || !c["volumeMounts"].is_array()) c["volumeMounts"] = json::array();
        c["volumeMounts"].push_back({{"name", cm}, {"mountPath", "/etc/volcano"}});
      }
    }
    if (!spec.contains("volumes") || !spec["volumes"].is_array()) spec["volumes"] = json::array();
    spec["volumes"].push_back({{"name", cm}, {"configMap", {{"name", cm}}}});
  }
  return {{"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", meta}, {"spec", spec}};
}

json VolcanoJobController::make_pod_group(const json& job) {
  json min_task = json::object();
  for (const auto& t : job["spec"]["tasks"]) min_task[t.value("name", "")] = int_or(t, "minAvailable", 0);
  json meta = {{"name", pod_group_name(job)}};
  const json& jm = job["metadata"];
  if (jm.contains("labels")) meta["labels"] = jm["labels"];
  if (jm.contains("annotations")) meta["annotations"] = jm["annotations"];
  json spec = {{"minMember", int_or(job["spec"], "minAvailable", 0)},
               {"minTaskMember", min_task},
               {"queue", job["spec"].value("queue", "default")}};
  if (!job["spec"].value("priorityClassName", "").empty())
    spec["priorityClassName"] = job["spec"]["priorityClassName"];
  json pg = owned_object("scheduling.volcano.sh/v1beta1", "PodGroup", job, std::move(meta));
  pg["spec"] = std::move(spec);
  return pg;
}

json VolcanoJobController::make_svc_config_map(const json& job) {
  json data = json::object();
  const std::string jname = meta_name(job);
  for (const auto& t : job["spec"]["tasks"]) {
    const std::string tname = t.value("name", "");
    const json tspec = t.value("template", json::object()).value("spec", json::object());
    const std::string hostname = tspec.value("hostname", ""), subdomain = tspec.value("subdomain", "");
    std::vector<std::string> hosts;
    for (int i = 0; i < int_or(t, "replicas", 0); ++i) {
      hosts.push_back((hostname.empty() ? jname + "-" + tname + "-" + std::to_string(i) : hostname) + "." +
                      (subdomain.empty() ? jname : subdomain));
      if (!hostname.empty()) break;
    }
    std::string nl, comma;
    for (size_t i = 0; i < hosts.size(); ++i) {
      nl += (i ? "\n" : "") + hosts[i];
      comma += (i ? "," : "") + hosts[i];
    }
    const std::string key = underscores(tname);
    data[key + ".host"] = nl;
    data["VC_" + upper(key) + "_HOSTS"] = comma;
    data["VC_" + upper(key) + "_NUM"] = std::to_string(hosts.size());
  }
  json cm = owned_object("v1", "ConfigMap", job, {{"name", jname + "-svc"}});
  cm["data"] = std::move(data);
  return cm;
}

json VolcanoJobController::make_service(const json& job) {
  // --publish-not-ready-addresses in the plugin's arguments; false by default.
  bool publish = false;
  for (const auto& a : job["spec"]["plugins"].value("svc", json::array()))
    if (a.is_string() && (a == "--publish-not-ready-addresses" || a == "--publish-not-ready-addresses=true"))
      publish = true;
  json svc = owned_object("v1", "Service", job, {{"name", meta_name(job)}});
  svc["spec"] = {
      {"clusterIP", "None"},
      {"selector", {{"volcano.sh/job-name", meta_name(job)}, {"volcano.sh/job-namespace", meta_ns(job)}}},
      {"publishNotReadyAddresses", publish}};
  return svc;
}

}  // namespace kubesim
