// Kueue's TrainJob integration (see kueue_trainjob.h; kubernetes-sigs/kueue v0.19.2
// pkg/controller/jobs/trainjob, pkg/controller/jobframework reconciler.go
// getPodSetsInfoFromStatus, pkg/podset FromAssignment).
#include "kubesim/controllers/kueue_trainjob.h"

#include <set>

#include "kubesim/controllers/kueue.h"
#include "kubesim/controllers/trainjob.h"
#include "kubesim/controllers/trainer_model.h"

namespace kubesim {

namespace {

json* kueue_patch(json& tj) {
  json& patches = tj["spec"]["runtimePatches"];
  if (!patches.is_array()) return nullptr;
  for (auto& p : patches)
    if (p.value("manager", "") == kKueueRuntimePatchManager) return &p;
  return nullptr;
}

bool active(const json& tj) {
  for (const auto& s : tj.value("status", json::object()).value("jobsStatus", json::array()))
    if (s.value("active", 0) > 0) return true;
  return false;
}

}  // namespace

bool kueue_trainjob_integration(const Store& store) { return KueueTypes::find(store).served(); }

void kueue_trainjob_webhook_default(const Store& store, json& tj) {
  if (!kueue_trainjob_integration(store)) return;
  const std::string ns = meta_ns(tj);
  if (ns == "kube-system" || ns == "kueue-system") return;  // the webhook's namespaceSelector
  // jobframework WorkloadShouldBeSuspended: a queue name (manageJobsWithoutQueueName is off).
  if (!label(tj, kKueueQueueLabel).empty()) tj["spec"]["suspend"] = true;
  tj["spec"]["runtimePatches"].push_back(
      {{"manager", kKueueRuntimePatchManager}, {"trainingRuntimeSpec", {{"template", {{"spec", json::object()}}}}}});
}

KueueTrainJobController::KueueTrainJobController(Context& ctx, TrainerOptions options)
    : Controller(ctx, KueueTypes::find(ctx.store).served() ? TrainerTypes::find(ctx.store).trainjobs : nullptr),
      m_kueue(KueueTypes::find(ctx.store)), m_options(std::move(options)) {}

json KueueTrainJobController::pod_sets(const json& tj, std::string& error) const {
  const json runtime = trainjob_runtime(m_ctx.store, TrainerTypes::find(m_ctx.store), tj);
  if (runtime.is_null()) {
    error = "runtime '" + tj["spec"].value("runtimeRef", json::object()).value("name", "") + "' not found";
    return json();
  }
  json out = json::array();
  try {
    TrainerInfo info = runtime_info(tj, runtime.value("spec", json::object()), m_options);
    const json js = build_trainer_jobset(info, tj);
    for (const auto& rj : js["spec"].value("replicatedJobs", json::array())) {
      const json job = rj.value("template", json::object()).value("spec", json::object());
      int64_t pods = int_or(job, "parallelism", 1);
      if (job.contains("completions")) pods = std::min(pods, int_or(job, "completions", pods));
      out.push_back({{"name", rj.value("name", "")},
                     {"count", int_or(rj, "replicas", 1) * pods},
                     {"template", job.value("template", json::object())}});
    }
  } catch (const std::exception& e) {
    error = e.what();
    return json();
  }
  return out;
}

// RunWithPodSetsInfo: the admitted podSets' labels, annotations, nodeSelector and tolerations
// into Kueue's runtimePatch, written while the TrainJob is suspended, then the unsuspend.
void KueueTrainJobController::run_with_pod_sets_info(const json& tj, const json& wl) {
  const json admission = wl.value("status", json::object()).value("admission", json::object());
  const std::string cq = admission.value("clusterQueue", "");
  json rjobs = json::array();
  for (const auto& a : admission.value("podSetAssignments", json::array())) {
    json node_selector = json::object(), tolerations = json::array();
    std::set<std::string> seen;
    const json flavors = a.value("flavors", json::object());
    for (const auto& [resource, flavor] : flavors.items()) {
      if (!seen.insert(flavor.get<std::string>()).second || !m_kueue.resource_flavors) continue;
      if (auto f = m_ctx.store.get_shared(*m_kueue.resource_flavors, "", flavor.get<std::string>())) {
        const json fspec = f->value("spec", json::object()), labels = fspec.value("nodeLabels", json::object());
        for (const auto& [k, v] : labels.items()) node_selector[k] = v;
        for (const auto& t : fspec.value("tolerations", json::array())) tolerations.push_back(t);
      }
    }
    json pod_spec = json::object();
    if (!node_selector.empty()) pod_spec["nodeSelector"] = node_selector;
    if (!tolerations.empty()) pod_spec["tolerations"] = tolerations;
    json labels = {{"kueue.x-k8s.io/podset", a.value("name", "")},
                   {"kueue.x-k8s.io/local-queue-name", wl["spec"].value("queueName", "")}};
    if (!cq.empty()) labels["kueue.x-k8s.io/cluster-queue-name"] = cq;
    rjobs.push_back({{"name", a.value("name", "")},
                     {"template",
                      {{"spec",
                        {{"template",
                          {{"metadata", {{"labels", labels}, {"annotations", {{"kueue.x-k8s.io/workload", meta_name(wl)}}}}},
                           {"spec", pod_spec}}}}}}}});
  }
  const TrainerTypes t = TrainerTypes::find(m_ctx.store);
  const std::string ns = meta_ns(tj), name = meta_name(tj);
  // The Update (through the Trainer's defaulting webhook, which stamps the changed patch's time).
  m_ctx.patch(*t.trainjobs, ns, name, [&](json& obj) {
    const json before = obj;
    json* p = kueue_patch(obj);
    if (!p) return;
    (*p)["trainingRuntimeSpec"]["template"]["spec"]["replicatedJobs"] = rjobs;
    default_runtime_patch_times(obj, &before, m_ctx.now_str());
  });
  m_ctx.patch(*t.trainjobs, ns, name, [](json& obj) { obj["spec"]["suspend"] = false; });
}

// Stop: suspended again; once no replicated job is active, the patch is emptied
// (RestorePodSetsInfo).
void KueueTrainJobController::stop(const json& tj) {
  const TrainerTypes t = TrainerTypes::find(m_ctx.store);
  const std::string ns = meta_ns(tj), name = meta_name(tj);
  if (!tj["spec"].value("suspend", false))
    m_ctx.patch(*t.trainjobs, ns, name, [](json& obj) { obj["spec"]["suspend"] = true; });
  if (active(tj)) return;
  m_ctx.patch(*t.trainjobs, ns, name, [&](json& obj) {
    const json before = obj;
    json* p = kueue_patch(obj);
    if (!p) return;
    json& spec = (*p)["trainingRuntimeSpec"]["template"]["spec"];
    if (spec.is_object()) spec.erase("replicatedJobs");
    default_runtime_patch_times(obj, &before, m_ctx.now_str());
  });
}

void KueueTrainJobController::reconcile(const std::string& ns, const std::string& name) {
  auto ptr = m_ctx.store.get_shared(*primary(), ns, name);
  if (!ptr || label(*ptr, kKueueQueueLabel).empty()) return;
  const json tj = trainjob_with_defaults(*ptr);
  const std::string wl_name = kueue_workload_name("TrainJob", kTrainerGroup, name, meta_uid(tj));
  auto wl = m_ctx.store.get_shared(*m_kueue.workloads, ns, wl_name);
  if (!wl) {
    std::string error;
    json sets = pod_sets(tj, error);
    if (sets.is_null()) return;  // the reconciler retries once the runtime is there
    json want = owned_object(m_kueue.workloads->api_version(), "Workload", tj,
                             {{"name", wl_name}, {"labels", {{"kueue.x-k8s.io/job-uid", meta_uid(tj)}}}});
    want["spec"] = {{"queueName", label(tj, kKueueQueueLabel)}, {"podSets", sets}, {"priority", 0}, {"active", true}};
    wl = std::make_shared<const json>(m_ctx.create_if_absent(*m_kueue.workloads, std::move(want)));
  }
  // Finished: the TrainJob's Complete or Failed condition finishes the Workload.
  for (const char* type : {"Complete", "Failed"}) {
    if (!condition_true(tj, type)) continue;
    const std::string message = trainctl::object::condition(tj, type).value("message", "");
    m_ctx.patch(*m_kueue.workloads, ns, wl_name, [&](json& w) {
      if (!condition_true(w, "Finished"))
        kueue_set_condition(w["status"], "Finished", true, std::string(type) == "Complete" ? "Succeeded" : "Failed",
                            message, m_ctx.now_str());
    });
    return;
  }
  const bool admitted = condition_true(*wl, "Admitted") && !condition_true(*wl, "Finished");
  const bool suspended = tj["spec"].value("suspend", false);
  if (admitted && suspended) run_with_pod_sets_info(tj, *wl);
  else if (!admitted && !suspended) stop(tj);
  else if (!admitted && suspended && !active(tj)) stop(tj);
}

}  // namespace kubesim
