// The TrainJob controller's reconcile and objects (see trainjob.h; kubeflow/trainer v2.3.0
// pkg/controller/trainjob_controller.go, pkg/runtime/core/{trainingruntime,
// clustertrainingruntime,snapshot}.go).
#include "kubesim/controllers/trainjob.h"

#include "core/log.h"
#include "kubesim/controllers/jobset_webhook.h"
#include "yaml/read.h"
#include "yaml/write.h"

namespace kubesim {

namespace {

bool trainjob_finished(const json& tj) { return condition_true(tj, "Complete") || condition_true(tj, "Failed"); }

bool is_cluster_ref(const json& tj) {
  return tj["spec"].value("runtimeRef", json::object()).value("kind", "") == "ClusterTrainingRuntime";
}

json owner_of(const json& tj) {
  return {{"apiVersion", kTrainerApiVersion}, {"kind", "TrainJob"},       {"name", meta_name(tj)},
          {"uid", meta_uid(tj)},              {"controller", true}, {"blockOwnerDeletion", true}};
}

// kube-apiserver would refuse an object of a resource that is not served (the RESTMapper's
// NoKindMatchError of the applying client).
[[noreturn]] void no_kind(const json& obj) {
  const std::string av = obj.value("apiVersion", "");
  throw std::runtime_error("no matches for kind \"" + obj.value("kind", "") + "\" in version \"" + av + "\"");
}

}  // namespace

json trainjob_runtime(const Store& store, const TrainerTypes& t, const json& tj) {
  const bool cluster = is_cluster_ref(tj);
  const ResourceType* rt = cluster ? t.clustertrainingruntimes : t.trainingruntimes;
  const std::string name = tj["spec"].value("runtimeRef", json::object()).value("name", "");
  auto obj = rt ? store.get_shared(*rt, cluster ? "" : meta_ns(tj), name) : nullptr;
  return obj ? runtime_with_defaults(*obj) : json();
}

TrainJobController::TrainJobController(Context& ctx, TrainerOptions options)
    : Controller(ctx, TrainerTypes::find(ctx.store).trainjobs), m_t(TrainerTypes::find(ctx.store)),
      m_options(std::move(options)) {}

json TrainJobController::runtime_of(const json& tj) {
  const bool cluster = is_cluster_ref(tj);
  const std::string ns = meta_ns(tj), snapshot = meta_name(tj) + "-runtime-snapshot";
  const json ref = tj["spec"].value("runtimeRef", json::object());
  const std::string get_prefix = cluster ? "getting runtime snapshot: " : "unable to get runtime snapshot: ";
  if (auto cm = m_ctx.store.get_shared(*m_t.configmaps, ns, snapshot)) {
    const json* owner = controller_of(*cm);
    if (!owner || owner->value("uid", "") != meta_uid(tj))
      throw std::runtime_error(get_prefix +
                               "invalid runtime snapshot: a snapshot configmap exists but is owned by another object");
    const json data = cm->value("data", json::object());
    if (!data.contains("runtime") || !data["runtime"].is_string())
      throw std::runtime_error(get_prefix + "invalid runtime snapshot: snapshot ConfigMap missing \"runtime\" data key");
    json rt;
    try {
      rt = trainctl::yaml::parse(data["runtime"].get<std::string>(), snapshot);
    } catch (const std::exception& e) {
      throw std::runtime_error(get_prefix + "invalid runtime snapshot: unable to unmarshal the snapshot: " + e.what());
    }
    const std::string av = rt.value("apiVersion", ""), group = av.substr(0, av.find('/'));
    if (rt.value("kind", "") != ref.value("kind", "") || group != ref.value("apiGroup", "") ||
        meta_name(rt) != ref.value("name", ""))
      throw std::runtime_error(
          get_prefix + "invalid runtime snapshot: the snapshot refers to the wrong runtime: expecting a runtime with name, "
                       "api group and kind of \"" + ref.value("name", "") + "\", \"" + ref.value("apiGroup", "") + "\", \"" +
          ref.value("kind", "") + "\" but found runtime with name, api group and kind of \"" + meta_name(rt) + "\", \"" +
          group + "\", \"" + rt.value("kind", "") + "\"");
    return runtime_with_defaults(rt);
  }
  json rt = trainjob_runtime(m_ctx.store, m_t, tj);
  if (rt.is_null()) {
    const std::string name = ref.value("name", "");
    throw std::runtime_error(cluster ? "not found ClusterTrainingRuntime specified in TrainJob: ClusterTrainingRuntime."
                                       "trainer.kubeflow.org \"" + name + "\" not found"
                                     : "TrainingRuntime specified in TrainJob is not found: TrainingRuntime."
                                       "trainer.kubeflow.org \"" + name + "\" not found");
  }
  json cm = {{"apiVersion", "v1"},
             {"kind", "ConfigMap"},
             {"metadata", {{"name", snapshot}, {"namespace", ns}, {"ownerReferences", json::array({owner_of(tj)})}}},
             {"data", {{"runtime", trainctl::yaml::to_yaml(rt)}}}};
  try {
    m_ctx.create_if_absent(*m_t.configmaps, std::move(cm));
  } catch (const StatusError& e) {
    throw std::runtime_error("creating runtime snapshot: applying runtime snapshot ConfigMap: " + e.message);
  }
  return rt;
}

void TrainJobController::apply_object(const json& obj) {
  const ResourceType* rt = m_ctx.store.find_kind(obj.value("apiVersion", ""), obj.value("kind", ""));
  if (!rt) no_kind(obj);
  const std::string ns = meta_ns(obj), name = meta_name(obj);
  if (!m_ctx.store.get_shared(*rt, ns, name)) {
    m_ctx.create_if_absent(*rt, obj);
    return;
  }
  m_ctx.patch(*rt, ns, name, [&](json& cur) {
    for (const char* k : {"spec", "data"})
      if (obj.contains(k)) cur[k] = obj[k];
  });
}

void TrainJobController::apply_jobset(json js, const json& tj) {
  const json fates = tj["metadata"].value("annotations", json::object());
  for (const auto& [k, v] : fates.items())
    if (k.rfind("kubesim.trainctl.io/", 0) == 0) js["metadata"]["annotations"][k] = v;
  default_jobset_spec(js["spec"]);
  const std::string ns = meta_ns(tj), name = meta_name(tj);
  auto old = m_ctx.store.get_shared(*m_t.jobsets, ns, name);
  if (!old) {
    if (auto denial = jobset_webhook_validate(js, nullptr)) throw std::runtime_error(denial->message);
    m_ctx.create_if_absent(*m_t.jobsets, std::move(js));
    return;
  }
  // Server-side apply of the Trainer's fields: its spec replaces the JobSet's, its labels and
  // annotations are set over the JobSet's.
  json next = *old;
  next["spec"] = js["spec"];
  for (const char* k : {"labels", "annotations"}) {
    const json values = js["metadata"].value(k, json::object());
    for (const auto& [key, v] : values.items()) next["metadata"][k][key] = v;
  }
  if (auto denial = jobset_webhook_validate(next, old.get())) throw std::runtime_error(denial->message);
  m_ctx.patch(*m_t.jobsets, ns, name, [&](json& cur) {
    cur["spec"] = next["spec"];
    if (next["metadata"].contains("labels")) cur["metadata"]["labels"] = next["metadata"]["labels"];
    if (next["metadata"].contains("annotations")) cur["metadata"]["annotations"] = next["metadata"]["annotations"];
  });
}

void TrainJobController::reconcile_objects(const json& tj) {
  const json runtime = runtime_of(tj);
  TrainerInfo info = runtime_info(tj, runtime.value("spec", json::object()), m_options);
  // Build's plugins, each deciding whether it writes (jobset.go, mpi.go, volcano.go).
  const bool suspended = tj["spec"].value("suspend", false);
  const bool has_secret = m_t.secrets && m_ctx.store.get_shared(*m_t.secrets, meta_ns(tj), meta_name(tj) + "-mpi-ssh-auth");
  for (const json& obj : build_trainer_extras(info, tj, m_options, !has_secret)) {
    const std::string kind = obj.value("kind", "");
    const ResourceType* rt = m_ctx.store.find_kind(obj.value("apiVersion", ""), kind);
    if (!rt) no_kind(obj);
    const bool exists = m_ctx.store.get_shared(*rt, meta_ns(obj), meta_name(obj)) != nullptr;
    if (exists && (kind == "Secret" || (kind == "PodGroup" && !suspended))) continue;
    apply_object(obj);
  }
  if (!m_t.jobsets) no_kind({{"apiVersion", kJobSetApiVersion}, {"kind", "JobSet"}});
  auto existing = m_ctx.store.get_shared(*m_t.jobsets, meta_ns(tj), meta_name(tj));
  if (existing && !suspended && !(*existing)["spec"].value("suspend", false)) return;
  apply_jobset(build_trainer_jobset(info, tj), tj);
}

void TrainJobController::reconcile(const std::string& ns, const std::string& name) {
  auto ptr = m_ctx.store.get_shared(*primary(), ns, name);
  if (!ptr || !m_t.configmaps) return;
  const json tj = trainjob_with_defaults(*ptr);
  if (tj["spec"].value("managedBy", kTrainJobController) != kTrainJobController) return;
  json status = tj.value("status", json::object());
  if (!status.is_object()) status = json::object();
  const json before = status;
  json& conds = status["conditions"];
  for (const auto& c : json(conds.is_array() ? conds : json::array()))
    if (c.value("type", "") == "Failed" && c.value("reason", "") != "DeadlineExceeded") remove_meta_condition(conds, "Failed");
  const std::string key = runtime_registry_key(tj["spec"].value("runtimeRef", json::object()));
  if (!is_supported_runtime_key(key)) {
    trainctl::log::debug("kubesim: trainjob {}/{}: unsupported runtime: {} (the Trainer's reconcile panics)", ns, name, key);
    return;
  }
  json current = tj;
  current["status"] = status;
  if (!trainjob_finished(current)) {
    try {
      reconcile_objects(tj);
    } catch (const std::exception& e) {
      std::string err = e.what();
      std::string message = "TrainJob resources reconciliation failed: " + err.substr(0, 950);
      if (err.size() > 950) message += " ...";
      m_ctx.record_event(tj, "Warning", "TrainJobResourcesCreationFailed", message, "trainer");
    }
  }
  // setSuspendedCondition.
  if (tj["spec"].value("suspend", false))
    set_meta_condition(conds, {{"type", "Suspended"}, {"status", "True"}, {"reason", "Suspended"}, {"message", "TrainJob is suspended"}},
                       m_ctx.now_str());
  else if (condition_true(json{{"status", status}}, "Suspended"))
    set_meta_condition(conds, {{"type", "Suspended"}, {"status", "False"}, {"reason", "Resumed"}, {"message", "TrainJob is resumed"}},
                       m_ctx.now_str());
  trainjob_status(tj, status);
  deadline(tj, status);
  if (status.contains("conditions") && status["conditions"].empty()) status.erase("conditions");
  if (status == before) return;
  m_ctx.patch(*primary(), ns, name, [&](json& obj) { obj["status"] = status; });
}

}  // namespace kubesim
