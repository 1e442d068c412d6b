// The Jobs of a JobSet (kubernetes-sigs/jobset v0.12.0 pkg/controllers/jobset_controller.go
// constructJob, labelAndAnnotateObject, jobHashKey, globalJobIndex, groupJobIndex,
// GetSubdomain; pkg/util/placement GenJobName).
#include "kubesim/controllers/context.h"
#include "kubesim/controllers/jobset.h"

namespace kubesim {

namespace {

// jobHashKey: the hex sha1 of "<namespace>/<job name>".
std::string job_hash_key(const std::string& ns, const std::string& job) { return sha1_hex(ns + "/" + job); }

// The replicas of the replicated jobs before `name` (globalJobIndex, groupJobIndex) and in all.
struct JobSetReplicaCounts {
  int64_t global_before = 0, global_total = 0, group_before = 0, group_total = 0;
};

JobSetReplicaCounts replica_counts(const json& spec, const std::string& name, const std::string& group) {
  JobSetReplicaCounts c;
  bool seen = false, seen_in_group = false;
  for (const auto& rj : spec.value("replicatedJobs", json::array())) {
    const int64_t r = int_or(rj, "replicas", 1);
    c.global_total += r;
    if (rj.value("name", "") == name) seen = true;
    if (!seen) c.global_before += r;
    if (rj.value("groupName", "default") != group) continue;
    c.group_total += r;
    if (rj.value("name", "") == name) seen_in_group = true;
    if (!seen_in_group) c.group_before += r;
  }
  return c;
}

void label_and_annotate(json& meta, const json& js, const json& rjob, int64_t idx) {
  const std::string name = rjob.value("name", "");
  const std::string group = rjob.value("groupName", "default");
  const std::string job = meta_name(js) + "-" + name + "-" + std::to_string(idx);
  const JobSetReplicaCounts c = replica_counts(js["spec"], name, group);
  const json values = {{kJobSetNameKey, meta_name(js)},
                       {kJobSetUidKey, meta_uid(js)},
                       {kReplicatedJobNameKey, name},
                       {kRestartsKey, std::to_string(js.value("status", json::object()).value("restarts", 0))},
                       {kReplicatedJobReplicasKey, std::to_string(int_or(rjob, "replicas", 1))},
                       {kGlobalReplicasKey, std::to_string(c.global_total)},
                       {kJobIndexKey, std::to_string(idx)},
                       {kJobKey, job_hash_key(meta_ns(js), job)},
                       {kJobGlobalIndexKey, std::to_string(c.global_before + idx)},
                       {kGroupNameKey, group},
                       {kGroupReplicasKey, std::to_string(c.group_total)},
                       {kJobGroupIndexKey, std::to_string(c.group_before + idx)}};
  for (const char* k : {"labels", "annotations"}) {
    if (!meta[k].is_object()) meta[k] = json::object();
    for (const auto& [key, v] : values.items()) meta[k][key] = v;
  }
  // Exclusive placement, set by the user on the JobSet or the replicated job.
  for (const json* src : {&js, &rjob}) {
    const json ann = src == &js ? js["metadata"].value("annotations", json::object())
                                : rjob.value("template", json::object()).value("metadata", json::object()).value("annotations", json::object());
    if (ann.contains("alpha.jobset.sigs.k8s.io/exclusive-topology")) {
      meta["annotations"]["alpha.jobset.sigs.k8s.io/exclusive-topology"] = ann["alpha.jobset.sigs.k8s.io/exclusive-topology"];
      if (ann.contains("alpha.jobset.sigs.k8s.io/node-selector"))
        meta["annotations"]["alpha.jobset.sigs.k8s.io/node-selector"] = ann["alpha.jobset.sigs.k8s.io/node-selector"];
    }
  }
}

// A container that only runs an ssh daemon in the foreground (`sshd -D`, `-De`), as the MPI
// runtimes' node pods do: it serves until it is stopped.
bool runs_sshd_only(const json& pod_spec) {
  const json cs = pod_spec.value("containers", json::array());
  if (cs.empty()) return false;
  for (const auto& c : cs) {
    const json cmd = c.value("command", json::array());
    if (cmd.empty() || !cmd[0].is_string()) return false;
    const std::string prog = cmd[0].get<std::string>();
    if (prog.size() < 4 || prog.compare(prog.size() - 4, 4, "sshd") != 0) return false;
  }
  return true;
}

// kubesim's fates (kubesim.trainctl.io/* annotations) of the JobSet reach its pods, unless the
// pod template has its own; a node that only serves sshd runs until the job ends, as kubesim's
// MPIJob workers do.
void inherit_fates(const json& js, json& pod) {
  json& ann = pod["metadata"]["annotations"];
  if (!ann.is_object()) ann = json::object();
  if (runs_sshd_only(pod.value("spec", json::object())) && !ann.contains(kOutcomeAnnotation))
    ann[kOutcomeAnnotation] = "run-forever";
  const json fates = js["metadata"].value("annotations", json::object());
  for (const auto& [k, v] : fates.items())
    if (k.rfind("kubesim.trainctl.io/", 0) == 0 && !ann.contains(k)) ann[k] = v;
  if (ann.empty()) pod["metadata"].erase("annotations");
}

}  // namespace

std::string jobset_subdomain(const json& js) {
  const std::string sub = js.value("spec", json::object()).value("network", json::object()).value("subdomain", "");
  return sub.empty() ? meta_name(js) : sub;
}

json jobset_construct_job(const json& js, const json& rjob, int64_t idx) {
  const json tmpl = rjob.value("template", json::object());
  json meta = {{"name", meta_name(js) + "-" + rjob.value("name", "") + "-" + std::to_string(idx)},
               {"namespace", meta_ns(js)}};
  const json tmeta = tmpl.value("metadata", json::object());
  if (tmeta.contains("labels")) meta["labels"] = tmeta["labels"];
  if (tmeta.contains("annotations")) meta["annotations"] = tmeta["annotations"];
  json spec = tmpl.value("spec", json::object());
  label_and_annotate(meta, js, rjob, idx);
  json& pod_meta = spec["template"]["metadata"];
  if (!pod_meta.is_object()) pod_meta = json::object();
  label_and_annotate(pod_meta, js, rjob, idx);
  inherit_fates(js, spec["template"]);
  const json network = js["spec"].value("network", json::object());
  if (network.value("enableDNSHostnames", false)) spec["template"]["spec"]["subdomain"] = jobset_subdomain(js);
  spec["suspend"] = js["spec"].value("suspend", false);
  // kube-apiserver's defaulting of a batch/v1 Job (pkg/apis/batch/v1/defaults.go): backoffLimit 6;
  // a pod's fieldRef gets apiVersion v1 (pkg/apis/core/v1/defaults.go).
  if (!spec.contains("backoffLimit")) spec["backoffLimit"] = 6;
  for (const char* list : {"containers", "initContainers"}) {
    json& cs = spec["template"]["spec"][list];
    if (!cs.is_array()) {
      if (cs.is_null()) spec["template"]["spec"].erase(list);
      continue;
    }
    for (auto& c : cs) {
      if (!c.contains("env") || !c["env"].is_array()) continue;
      for (auto& e : c["env"])
        if (e.contains("valueFrom") && e["valueFrom"].contains("fieldRef") && !e["valueFrom"]["fieldRef"].contains("apiVersion"))
          e["valueFrom"]["fieldRef"]["apiVersion"] = "v1";
    }
  }
  return {{"apiVersion", "batch/v1"}, {"kind", "Job"}, {"metadata", std::move(meta)}, {"spec", std::move(spec)}};
}

}  // namespace kubesim
