// Admission of Trainer's and JobSet's objects (see trainer_admission.h).
#include "kubesim/trainer_admission.h"

#include <regex>
#include <set>

#include "kubesim/controllers/context.h"
#include "kubesim/controllers/jobset_webhook.h"
#include "kubesim/controllers/kueue_trainjob.h"
#include "kubesim/controllers/trainer_build.h"
#include "kubesim/controllers/trainer_model.h"

namespace kubesim {

namespace {

const char* kDeprecationPolicy =
    "https://trainer.kubeflow.org/en/latest/operator-guides/runtime.html#runtime-deprecation-policy";

bool is_trainer(const ResourceType& rt, const char* plural) { return rt.group == kTrainerGroup && rt.plural == plural; }
bool is_runtime(const ResourceType& rt) {
  return is_trainer(rt, "trainingruntimes") || is_trainer(rt, "clustertrainingruntimes");
}
bool is_jobset(const ResourceType& rt) { return rt.group == "jobset.x-k8s.io" && rt.plural == "jobsets"; }

json spec_of(const json& obj) { return obj.value("spec", json::object()); }

json cel_cause(const std::string& field, const std::string& type, const std::string& message) {
  return {{"reason", "FieldValueInvalid"},
          {"message", "Invalid value: \"" + type + "\": " + message},
          {"field", field}};
}

// self == oldSelf on a field both versions have.
void immutable(const json& now, const json& before, const std::string& key, const std::string& field,
               const std::string& type, const std::string& message, json& causes) {
  if (now.is_object() && before.is_object() && now.contains(key) && before.contains(key) && now[key] != before[key])
    causes.push_back(cel_cause(field, type, message));
}

const char* json_type_of(const json& v) {
  return v.is_object() ? "object" : v.is_array() ? "array" : v.is_string() ? "string" : v.is_boolean() ? "boolean" : "integer";
}

void trainjob_rules(const json& tj, const json* old, json& causes) {
  const std::string name = meta_name(tj);
  static const std::regex rfc1035("^[a-z]([-a-z0-9]*[a-z0-9])?$");
  if (!name.empty() && !std::regex_match(name, rfc1035))
    causes.push_back(cel_cause("<nil>", "object", "metadata.name must match RFC 1035 DNS label format"));
  if (name.size() > 63) causes.push_back(cel_cause("<nil>", "object", "metadata.name must be no more than 63 characters"));
  const json spec = spec_of(tj);
  static const std::regex uri("^[A-Za-z][A-Za-z0-9+.-]*://.+$");
  for (const char* which : {"dataset", "model"}) {
    const json init = spec.value("initializer", json::object()).value(which, json::object());
    if (init.is_object() && init.contains("storageUri") && init["storageUri"].is_string()) {
      const std::string u = init["storageUri"];
      if (!u.empty() && !std::regex_match(u, uri))
        causes.push_back(cel_cause("spec.initializer." + std::string(which) + ".storageUri", "string",
                                   "storageUri may be empty, or it must be a valid URI (scheme://...)"));
    }
  }
  if (spec.contains("managedBy") && spec["managedBy"].is_string() && spec["managedBy"] != kTrainJobController &&
      spec["managedBy"] != "kueue.x-k8s.io/multikueue")
    causes.push_back(cel_cause("spec.managedBy", "string",
                               "ManagedBy must be trainer.kubeflow.org/trainjob-controller or kueue.x-k8s.io/multikueue "
                               "if set"));
  if (!old) return;
  const json before = spec_of(*old);
  for (const char* key : {"activeDeadlineSeconds", "initializer", "managedBy", "runtimeRef", "trainer"})
    if (spec.contains(key)) immutable(spec, before, key, std::string("spec.") + key, json_type_of(spec[key]), "field is immutable", causes);
  // runtimePatches (listType=map, key manager) and their replicatedJobs (key name) correlate
  // old and new items; the pod spec fields below are immutable in each.
  const json patches = spec.value("runtimePatches", json::array());
  const json old_patches = before.value("runtimePatches", json::array());
  for (size_t i = 0; i < patches.size(); ++i)
    for (const auto& op : old_patches) {
      if (op.value("manager", "") != patches[i].value("manager", "")) continue;
      auto rjobs = [](const json& p) {
        return p.value("trainingRuntimeSpec", json::object()).value("template", json::object()).value("spec", json::object()).value("replicatedJobs", json::array());
      };
      const json nr = rjobs(patches[i]), orj = rjobs(op);
      for (size_t j = 0; j < nr.size(); ++j)
        for (const auto& o : orj) {
          if (o.value("name", "") != nr[j].value("name", "")) continue;
          auto pod = [](const json& rj) {
            return rj.value("template", json::object()).value("spec", json::object()).value("template", json::object()).value("spec", json::object());
          };
          const std::string base = "spec.runtimePatches[" + std::to_string(i) +
                                   "].trainingRuntimeSpec.template.spec.replicatedJobs[" + std::to_string(j) +
                                   "].template.spec.template.spec.";
          const json np = pod(nr[j]), opod = pod(o);
          for (const char* key : {"containers", "imagePullSecrets", "initContainers", "securityContext",
                                  "serviceAccountName", "terminationGracePeriodSeconds", "volumes"})
            if (np.contains(key)) immutable(np, opod, key, base + key, json_type_of(np[key]), "field is immutable", causes);
        }
    }
}

void jobset_spec_rules(const json& spec, const json* old_spec, const std::string& path, json& causes) {
  bool depends = false;
  for (const auto& rj : spec.value("replicatedJobs", json::array())) depends = depends || rj.contains("dependsOn");
  if (spec.value("startupPolicy", json::object()).value("startupPolicyOrder", "") == "InOrder" && depends)
    causes.push_back(cel_cause(path, "object", "StartupPolicy and DependsOn APIs are mutually exclusive"));
  if (!old_spec) return;
  for (const char* key : {"failurePolicy", "network", "startupPolicy", "successPolicy", "volumeClaimPolicies"})
    if (spec.contains(key)) immutable(spec, *old_spec, key, path + "." + key, json_type_of(spec[key]), "Value is immutable", causes);
}

void runtime_rules(const json& rt, const json* old, json& causes) {
  const json spec = spec_of(rt);
  const json ml = spec.value("mlPolicy", json());
  if (ml.is_object()) {
    int policies = 0;
    for (const char* k : {"torch", "mpi", "jax", "xgboost", "flux"}) policies += ml.contains(k) ? 1 : 0;
    if (policies > 1) causes.push_back(cel_cause("spec.mlPolicy", "object", "Only one of the policy can be configured"));
    size_t i = 0;
    for (const auto& t : ml.value("torch", json::object()).value("envInjection", json::object()).value("targets", json::array())) {
      for (const auto& c : t.value("containerNames", json::array()))
        if (c == kNodeName) {
          causes.push_back(cel_cause("spec.mlPolicy.torch.envInjection.targets[" + std::to_string(i) + "].containerNames",
                                     "array",
                                     "containerNames must not include the main node container because PET_* envs are "
                                     "always injected into it"));
          break;
        }
      ++i;
    }
  }
  const json tmpl = spec.value("template", json::object()).value("spec", json::object());
  const json old_tmpl = old ? spec_of(*old).value("template", json::object()).value("spec", json::object()) : json();
  jobset_spec_rules(tmpl, old ? &old_tmpl : nullptr, "spec.template.spec", causes);
}

std::string aggregate(const std::vector<std::string>& errs) {
  std::vector<std::string> unique;
  for (const auto& e : errs)
    if (std::find(unique.begin(), unique.end(), e) == unique.end()) unique.push_back(e);
  if (unique.size() == 1) return unique[0];
  std::string out = "[";
  for (size_t i = 0; i < unique.size(); ++i) out += (i ? ", " : "") + unique[i];
  return out + "]";
}

[[noreturn]] void deny(const std::string& webhook, const std::string& message) {
  throw StatusError(403, "Forbidden", "admission webhook \"" + webhook + "\" denied the request: " + message);
}

std::vector<std::string> validate_trainjob(const Store& store, const json& tj, const json* old) {
  const TrainerTypes t = TrainerTypes::find(store);
  const json spec = spec_of(tj);
  const json ref = spec.value("runtimeRef", json::object());
  const std::string key = runtime_registry_key(ref);
  const char* webhook = "validator.trainjob.trainer.kubeflow.org";
  if (!is_supported_runtime_key(key)) deny(webhook, "unsupported runtime: " + key);
  const bool cluster = ref.value("kind", "") == "ClusterTrainingRuntime";
  const ResourceType* rrt = cluster ? t.clustertrainingruntimes : t.trainingruntimes;
  const std::string rname = ref.value("name", "");
  auto runtime = rrt ? store.get_shared(*rrt, cluster ? "" : meta_ns(tj), rname) : nullptr;
  // trainingruntime.go / clustertrainingruntime.go ValidateObjects; the error of the cached
  // client's Get names the kind (controller-runtime cache_reader.go).
  const std::string ref_json = "{\"name\":" + json(rname).dump() + ",\"apiGroup\":" + json(ref.value("apiGroup", "")).dump() +
                               ",\"kind\":" + json(ref.value("kind", "")).dump() + "}";
  if (!runtime)
    deny(webhook, std::string(cluster ? "spec.RuntimeRef" : "spec.runtimeRef") + ": Invalid value: " + ref_json + ": " +
                      (cluster ? "ClusterTrainingRuntime" : "TrainingRuntime") + ".trainer.kubeflow.org \"" + rname +
                      "\" not found: specified " + (cluster ? "clusterTrainingRuntime" : "trainingRuntime") +
                      " must be created before the TrainJob is created");
  std::vector<std::string> warnings;
  if (cluster && label(*runtime, kSupportLabel) == "deprecated")
    warnings.push_back("Referenced ClusterTrainingRuntime \"" + rname +
                       "\" is deprecated and will be removed in a future release of Kubeflow Trainer. See runtime "
                       "deprecation policy: " +
                       kDeprecationPolicy);
  const TrainerInfo info = new_runtime_info(tj, spec_of(runtime_with_defaults(*runtime)));
  std::shared_ptr<const json> jobset;
  if (old && t.jobsets) jobset = store.get_shared(*t.jobsets, meta_ns(tj), meta_name(tj));
  const auto errs = validate_trainjob_plugins(info, tj, old, jobset.get(), [&](const std::string& pc) {
    return t.priorityclasses && store.get_shared(*t.priorityclasses, "", pc) != nullptr;
  });
  if (!errs.empty()) {
    std::vector<std::string> lines;
    for (const auto& e : errs) lines.push_back(e.field + ": " + e.body);
    deny(webhook, aggregate(lines));
  }
  return warnings;
}

// trainingruntime_webhook.go validateReplicatedJobs.
std::vector<std::string> validate_runtime(const ResourceType& rt, const json& runtime, const json* old) {
  const bool cluster = rt.plural == "clustertrainingruntimes";
  if (label(runtime, "trainer.kubeflow.org/webhook-validation") == "disabled") return {};
  if (old && !cluster) return {};
  std::vector<std::string> warnings, lines;
  if (cluster && !old && label(runtime, kSupportLabel) == "deprecated")
    warnings.push_back("ClusterTrainingRuntime \"" + meta_name(runtime) +
                       "\" is deprecated and will be removed in a future release of Kubeflow Trainer. See runtime "
                       "deprecation policy: " +
                       kDeprecationPolicy);
  const json rjobs = spec_of(runtime).value("template", json::object()).value("spec", json::object()).value("replicatedJobs", json::array());
  static const std::map<std::string, std::string> expected = {
      {kAncestorTrainer, kNodeName}, {kModelInitializer, kModelInitializer}, {kDatasetInitializer, kDatasetInitializer}};
  for (size_t i = 0; i < rjobs.size(); ++i) {
    const std::string ancestor = rjobs[i].value("template", json::object())
                                     .value("metadata", json::object())
                                     .value("labels", json::object())
                                     .value(kAncestorLabel, "");
    if (!expected.count(ancestor)) continue;
    const std::string path = "spec.template.spec.replicatedJobs[" + std::to_string(i) + "]";
    const int64_t replicas = int_or(rjobs[i], "replicas", 1);
    if (replicas != 1) lines.push_back(path + ".replicas: Invalid value: " + std::to_string(replicas) + ": always must be 1");
    const json containers = rjobs[i].value("template", json::object()).value("spec", json::object()).value("template", json::object()).value("spec", json::object()).value("containers", json::array());
    bool found = false;
    for (const auto& c : containers) found = found || c.value("name", "") == expected.at(ancestor);
    if (!found)
      lines.push_back(path + ".template.spec.template.spec.containers: Invalid value: " + trainer_go_json(containers) +
                      ": must contain the required container for the ancestor: " + ancestor);
  }
  if (!lines.empty())
    deny(std::string("validator.") + (cluster ? "clustertrainingruntime" : "trainingruntime") + ".trainer.kubeflow.org",
         aggregate(lines));
  return warnings;
}

}  // namespace

void trainer_admission_mutate(const Store& store, const ResourceType& rt, json& obj, const json* old,
                              bool kueue_trainjob) {
  if (is_trainer(rt, "trainjobs")) {
    obj = trainjob_with_defaults(std::move(obj));
    default_runtime_patch_times(obj, old, format_rfc3339(store.now()));
    if (!old && kueue_trainjob) kueue_trainjob_webhook_default(store, obj);
  } else if (is_runtime(rt)) {
    obj = runtime_with_defaults(std::move(obj));
  } else if (is_jobset(rt)) {
    if (!obj.contains("spec") || !obj["spec"].is_object()) return;
    if (old) default_jobset_crd(obj["spec"]);
    else default_jobset_spec(obj["spec"]);
  }
}

void trainer_crd_rules(const ResourceType& rt, const json& obj, const json* old, json& causes) {
  if (is_trainer(rt, "trainjobs")) {
    trainjob_rules(obj, old, causes);
    const json ts = obj.value("status", json::object()).value("trainerStatus", json());
    if (ts.is_object() && !ts.contains("lastUpdatedTime"))
      causes.push_back(cel_cause("status.trainerStatus", "object", "lastUpdatedTime is required when trainerStatus is present"));
  } else if (is_runtime(rt)) {
    runtime_rules(obj, old, causes);
  } else if (is_jobset(rt)) {
    const json old_spec = old ? spec_of(*old) : json();
    jobset_spec_rules(spec_of(obj), old ? &old_spec : nullptr, "spec", causes);
  }
}

std::vector<std::string> trainer_admission_validate(const Store& store, const ResourceType& rt, const json& obj,
                                                    const json* old) {
  if (is_trainer(rt, "trainjobs")) return validate_trainjob(store, obj, old);
  if (is_runtime(rt)) return validate_runtime(rt, obj, old);
  if (is_jobset(rt))
    if (auto denial = jobset_webhook_validate(obj, old)) throw *denial;
  return {};
}

}  // namespace kubesim
