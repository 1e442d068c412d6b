// Kueue's job reconciler for the jobs it manages (see kueue.h).
#include <algorithm>
#include <cstdio>

#include "core/text.h"
#include "kubesim/controllers/kueue.h"

namespace kubesim {

namespace {

// The replica types in the order Kueue lists their podSets (kubeflowjob OrderedReplicaTypes,
// mpijob orderedReplicaTypes); others after them, by name.
const std::vector<std::string>& replica_order(const std::string& plural) {
  static const std::vector<std::string> pytorch = {"Master", "Worker"};
  static const std::vector<std::string> tf = {"Chief", "Master", "PS", "Worker", "Evaluator"};
  static const std::vector<std::string> mpi = {"Launcher", "Worker"};
  return plural == "pytorchjobs" ? pytorch : plural == "tfjobs" ? tf : mpi;
}

json pod_sets(const ResourceType& rt, const json& job) {
  const json spec = job.value("spec", json::object());
  json sets = json::array();
  if (rt.group == "batch") {
    json tmpl = spec.value("template", json::object());
    tmpl.erase("status");
    sets.push_back({{"name", "main"}, {"count", int_or(spec, "parallelism", 1)}, {"template", tmpl}});
    return sets;
  }
  const std::string key = rt.plural == "pytorchjobs" ? "pytorchReplicaSpecs"
                          : rt.plural == "tfjobs"    ? "tfReplicaSpecs"
                                                     : "mpiReplicaSpecs";
  const json replicas = spec.value(key, json::object());
  std::vector<std::string> names;
  for (const auto& n : replica_order(rt.plural))
    if (replicas.contains(n)) names.push_back(n);
  for (const auto& [n, v] : replicas.items())
    if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
  for (const auto& n : names) {
    const json& r = replicas[n];
    sets.push_back({{"name", trainctl::ascii_lower(n)},
                    {"count", int_or(r, "replicas", 1)},
                    {"template", r.value("template", json::object())}});
  }
  return sets;
}

// The job's end as Kueue reads it (GenericJob.Finished): condition, reason, message.
bool job_finished_with(const ResourceType& rt, const json& job, std::string& reason, std::string& message) {
  const bool batch = rt.group == "batch";
  for (const std::string type : {batch ? "Complete" : "Succeeded", "Failed"}) {
    if (!condition_true(job, type)) continue;
    reason = type == "Failed" ? "Failed" : "Succeeded";
    message = trainctl::object::condition(job, type).value("message", "");
    if (message.empty()) message = type == "Failed" ? "Job failed" : "Job finished successfully";
    return true;
  }
  return false;
}

}  // namespace

std::string kueue_workload_name(const std::string& kind, const std::string& group, const std::string& name,
                                const std::string& uid) {
  std::string prefix = trainctl::ascii_lower(kind) + "-" + name;
  if (prefix.size() > 253 - 1 - 5) prefix.resize(253 - 1 - 5);
  return prefix + "-" + sha1_hex(kind + "\n" + group + "\n" + name + "\n" + uid).substr(0, 5);
}

json kueue_workload_for(const ResourceType& rt, const json& job) {
  const std::string name = meta_name(job), uid = meta_uid(job);
  json wl = owned_object("kueue.x-k8s.io/v1beta2", "Workload", job,
                         {{"name", kueue_workload_name(rt.kind, rt.group, name, uid)},
                          {"labels", {{"kueue.x-k8s.io/job-uid", uid}}}});
  wl["spec"] = {{"queueName", label(job, kKueueQueueLabel)},
                {"podSets", pod_sets(rt, job)},
                {"priority", 0},
                {"active", true}};
  return wl;
}

KueueJobController::KueueJobController(Context& ctx, const ResourceType* job)
    : Controller(ctx, KueueTypes::find(ctx.store).served() ? job : nullptr), m_kueue(KueueTypes::find(ctx.store)) {}

void KueueJobController::reconcile(const std::string& ns, const std::string& name) {
  const ResourceType& rt = *primary();
  auto job = m_ctx.store.get_shared(rt, ns, name);
  if (!job || label(*job, kKueueQueueLabel).empty()) return;
  json want = kueue_workload_for(rt, *job);
  const std::string wl_name = meta_name(want);
  auto wl = m_ctx.store.get_shared(*m_kueue.workloads, ns, wl_name);
  if (!wl) {
    want["apiVersion"] = m_kueue.workloads->api_version();
    wl = std::make_shared<const json>(m_ctx.create_if_absent(*m_kueue.workloads, std::move(want)));
  }
  std::string reason, message;
  if (job_finished_with(rt, *job, reason, message)) {
    // jobframework reconciler: a finished job's Workload gets Finished and frees its quota.
    m_ctx.patch(*m_kueue.workloads, ns, wl_name, [&](json& w) {
      if (!condition_true(w, "Finished"))
        kueue_set_condition(w["status"], "Finished", true, reason, message, m_ctx.now_str());
    });
    return;
  }
  // Admitted: the job runs (StartJob); otherwise it stays, or is made, suspended (StopJob).
  const bool admitted = condition_true(*wl, "Admitted") && !condition_true(*wl, "Finished");
  if (kueue_job_suspended(rt, *job) == admitted)
    m_ctx.patch(rt, ns, name, [&](json& obj) { set_kueue_job_suspend(rt, obj, !admitted); });
}

}  // namespace kubesim
