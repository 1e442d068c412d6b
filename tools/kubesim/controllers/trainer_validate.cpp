// The Trainer plugins' Validate, run by the TrainJob validating webhook (kubeflow/trainer
// v2.3.0 pkg/runtime/framework/core/framework.go RunCustomValidationPlugins): jobset.go Validate
// and checkRuntimePatchesImmutability, torch.go Validate, mpi.go Validate, xgboost.go Validate,
// volcano.go Validate. Go runs them in map order; kubesim in this file's order.
#include <algorithm>
#include <regex>
#include <set>

#include "kubesim/controllers/context.h"
#include "kubesim/controllers/trainer_build.h"
#include "kubesim/controllers/trainer_model.h"

namespace kubesim {

namespace {

// The field order of the Go structs a field.Error's bad value is marshalled from (RuntimeRef,
// EnvVar, RuntimePatch and its parts, ObjectMeta), so that json.Marshal's output is matched;
// other keys follow, sorted.
int go_field_rank(const std::string& key) {
  static const std::vector<std::string> order = {
      "name",        "apiGroup",      "kind",           "image",           "manager",         "time",
      "trainingRuntimeSpec", "metadata", "labels",      "annotations",     "template",
      "spec",        "replicatedJobs", "value",         "valueFrom",       "serviceAccountName",
      "volumes",     "initContainers", "containers",    "imagePullSecrets", "securityContext",
      "nodeSelector", "affinity",     "tolerations",    "schedulingGates", "terminationGracePeriodSeconds",
      "env",         "volumeMounts"};
  const auto it = std::find(order.begin(), order.end(), key);
  return it == order.end() ? static_cast<int>(order.size()) : static_cast<int>(it - order.begin());
}

}  // namespace

std::string trainer_go_json(const json& v) {
  if (v.is_array()) {
    std::string out = "[";
    for (size_t i = 0; i < v.size(); ++i) out += (i ? "," : "") + trainer_go_json(v[i]);
    return out + "]";
  }
  if (!v.is_object()) return v.dump();
  std::vector<std::string> keys;
  for (const auto& [k, x] : v.items()) keys.push_back(k);
  std::stable_sort(keys.begin(), keys.end(), [](const auto& a, const auto& b) {
    const int ra = go_field_rank(a), rb = go_field_rank(b);
    return ra != rb ? ra < rb : a < b;
  });
  std::string out = "{";
  for (size_t i = 0; i < keys.size(); ++i) out += (i ? "," : "") + json(keys[i]).dump() + ":" + trainer_go_json(v[keys[i]]);
  return out + "}";
}

namespace {

TrainerFieldError field_invalid(const std::string& field, const json& value, const std::string& detail) {
  return {"FieldValueInvalid", field, "Invalid value: " + trainer_go_json(value) + ": " + detail};
}

TrainerFieldError field_forbidden(const std::string& field, const std::string& detail) {
  return {"FieldValueForbidden", field, "Forbidden: " + detail};
}

std::set<std::string> container_names(const json& rj) {
  std::set<std::string> out;
  const json pod = rj.value("template", json::object()).value("spec", json::object()).value("template", json::object());
  for (const char* list : {"initContainers", "containers"})
    for (const auto& c : pod.value("spec", json::object()).value(list, json::array())) out.insert(c.value("name", ""));
  return out;
}

const json* rjob_named(const json& spec, const std::string& name) {
  const auto list = spec.find("replicatedJobs");
  if (list == spec.end() || !list->is_array()) return nullptr;
  for (const auto& rj : *list)
    if (rj.value("name", "") == name) return &rj;
  return nullptr;
}

json pod_spec_at(const json& rj) {
  return rj.value("template", json::object())
      .value("spec", json::object())
      .value("template", json::object())
      .value("spec", json::object());
}

// jobset.go Validate: an initializer needs its replicated job, container and `initializer` mount.
void check_initializer(const TrainerInfo& info, const json& tj, const char* which, const char* key,
                       std::vector<TrainerFieldError>& errs) {
  const json spec = tj.value("spec", json::object());
  const json init = spec.value("initializer", json::object());
  if (!init.is_object() || !init.contains(key) || init[key].is_null()) return;
  const json ref = spec.value("runtimeRef", json::object());
  const json* rj = rjob_named(info.spec, which);
  const std::string config = std::string(key) + "Config";
  if (!rj) {
    errs.push_back(field_invalid("spec.runtimeRef", ref,
                           "must have " + std::string(which) + " job when trainJob is configured with input " + config));
    return;
  }
  if (!container_names(*rj).count(which)) {
    errs.push_back(field_invalid("spec.runtimeRef", ref,
                           "must have container with name - " + std::string(which) + " in the " + which + " job"));
    return;
  }
  for (const auto& c : pod_spec_at(*rj).value("containers", json::array()))
    if (c.value("name", "") == which)
      for (const auto& m : c.value("volumeMounts", json::array()))
        if (m.value("name", "") == "initializer") return;
  errs.push_back(field_invalid("spec.runtimeRef", ref,
                         "must have volumeMount with name - initializer in container " + std::string(which) + " of the " +
                             which + " job"));
}

// k8s.io/apimachinery validation.IsDomainPrefixedPath: "<DNS-1123 subdomain>/<path>".
void check_manager(const std::string& manager, std::vector<TrainerFieldError>& errs) {
  const std::string field = "spec.runtimePatches.manager";
  const size_t slash = manager.find('/');
  if (slash == std::string::npos) {
    errs.push_back(field_invalid(field, manager, "must be a domain-prefixed path (such as \"acme.io/foo\")"));
    return;
  }
  const std::string host = manager.substr(0, slash), path = manager.substr(slash + 1);
  static const std::regex subdomain("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
  if (host.size() > 253 || !std::regex_match(host, subdomain))
    errs.push_back(field_invalid(field, host,
                           "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
                           "'.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used "
                           "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"));
  static const std::regex path_re("[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+");
  if (!std::regex_match(path, path_re))
    errs.push_back(field_invalid(field, path, "Invalid path"));
}

void jobset_plugin(const TrainerInfo& info, const json& tj, const json* old, const json* jobset,
                   std::vector<TrainerFieldError>& errs) {
  check_initializer(info, tj, kDatasetInitializer, "dataset", errs);
  check_initializer(info, tj, kModelInitializer, "model", errs);
  const json patches = tj.value("spec", json::object()).value("runtimePatches", json::array());
  if (old) {  // checkRuntimePatchesImmutability
    const json old_patches = old->value("spec", json::object()).value("runtimePatches", json::array());
    // equality.Semantic.DeepEqual compares the times too; a changed time alone is a change.
    if (old_patches != patches) {
      const bool old_suspended = old->value("spec", json::object()).value("suspend", false);
      const bool new_suspended = tj.value("spec", json::object()).value("suspend", false);
      if (!old_suspended && !new_suspended) {
        errs.push_back(field_forbidden("spec.runtimePatches",
                                 "RuntimePatches can only be modified when the TrainJob is suspended before or after "
                                 "the update"));
      } else if (jobset) {
        for (const auto& s : jobset->value("status", json::object()).value("replicatedJobsStatus", json::array()))
          if (s.value("active", 0) > 0)
            errs.push_back(field_forbidden("spec.runtimePatches",
                                     "RuntimePatches cannot be modified when the JobSet's ReplicatedJob " +
                                         s.value("name", "") + " is still active"));
      }
    }
  }
  for (const auto& p : patches) {
    check_manager(p.value("manager", ""), errs);
    const json spec = p.value("trainingRuntimeSpec", json::object()).value("template", json::object()).value("spec", json());
    if (!spec.is_object()) continue;
    for (const auto& rjp : spec.value("replicatedJobs", json::array())) {
      const json* rj = rjob_named(info.spec, rjp.value("name", ""));
      if (!rj) {
        errs.push_back(field_invalid("spec.runtimePatches", patches,
                               "must not have replicated job that doesn't exist in the runtime job template"));
        continue;
      }
      const std::set<std::string> names = container_names(*rj);
      const json pod = rjp.value("template", json::object()).value("spec", json::object()).value("template", json::object());
      const json pod_spec = pod.value("spec", json::object());
      const std::string rname = rjp.value("name", "");
      for (const auto& c : pod_spec.value("initContainers", json::array()))
        if (!names.count(c.value("name", "")))
          errs.push_back(field_invalid("spec.runtimePatches", patches,
                                 "must not have initContainer that doesn't exist in the runtime job " + rname));
      for (const auto& c : pod_spec.value("containers", json::array())) {
        const std::string cn = c.value("name", "");
        if (!names.count(cn))
          errs.push_back(field_invalid("spec.runtimePatches", patches,
                                 "must not have container that doesn't exist in the runtime job " + rname));
        else if (!c.value("env", json::array()).empty() &&
                 (cn == kDatasetInitializer || cn == kModelInitializer || cn == kNodeName))
          errs.push_back(field_invalid("spec.runtimePatches", patches,
                                 "must not have envs for the dataset-initializer, model-initializer, node containers"));
      }
    }
  }
}

// "[A B]" as fmt prints a sorted []string (sets.List).
std::string reserved_list(const std::set<std::string>& names) {
  std::string out = "[";
  for (const auto& n : names) out += (out.size() > 1 ? " " : "") + n;
  return out + "]";
}

void reserved_envs(const json& trainer, const std::set<std::string>& reserved, std::vector<TrainerFieldError>& errs) {
  std::set<std::string> found;
  for (const auto& e : trainer.value("env", json::array()))
    if (reserved.count(e.value("name", ""))) found.insert(e.value("name", ""));
  if (!found.empty())
    errs.push_back(field_invalid("spec.trainer.env", trainer["env"],
                           "must not have reserved envs, invalid envs configured: " + reserved_list(found)));
}

}  // namespace

std::vector<TrainerFieldError> validate_trainjob_plugins(
    const TrainerInfo& info, const json& tj, const json* old, const json* jobset,
    const std::function<bool(const std::string&)>& priority_class_exists) {
  std::vector<TrainerFieldError> errs;
  jobset_plugin(info, tj, old, jobset, errs);
  const json trainer = tj.value("spec", json::object()).value("trainer", json());
  const json& ml = info.ml_policy;
  if (ml.is_object() && ml.contains("torch")) {
    for (const auto& t : ml["torch"].value("envInjection", json::object()).value("targets", json::array()))
      for (const auto& cn : t.value("containerNames", json::array())) {
        bool found = false;
        for (const auto& ps : info.podsets)
          if (ps.name == t.value("jobName", ""))
            for (const json* list : {&ps.containers, &ps.init_containers})
              for (const auto& c : *list) found = found || c.value("name", "") == cn.get<std::string>();
        if (!found)
          errs.push_back(field_invalid("spec.runtimeRef", t,
                                 "envInjection target podSet \"" + t.value("jobName", "") + "\" container \"" +
                                     cn.get<std::string>() + "\" not found in runtime template"));
      }
    if (trainer.is_object())
      reserved_envs(trainer, {"PET_NNODES", "PET_NPROC_PER_NODE", "PET_NODE_RANK", "PET_MASTER_ADDR", "PET_MASTER_PORT"},
                    errs);
  }
  if (ml.is_object() && ml.contains("mpi")) {
    if (trainer.is_object() && trainer.value("numNodes", 1) >= 2 && ml["mpi"].value("runLauncherAsNode", false)) {
      bool launcher = false, node = false;
      for (const auto& ps : info.podsets) {
        launcher = launcher || ps.name == kLauncherName;
        node = node || ps.name == kNodeName;
      }
      if (!launcher || !node)
        errs.push_back(field_invalid("spec.trainer.numNodes", trainer["numNodes"],
                               "must have 1 when MPI trainingRuntime with enabled runLauncherAsNode does not have "
                               "either launcher and node"));
    }
    if (trainer.is_object())
      reserved_envs(trainer,
                    {"OMPI_MCA_orte_default_hostfile", "OMPI_MCA_plm_rsh_args", "OMPI_MCA_orte_keep_fqdn_hostnames",
                     "OMPI_MCA_orte_set_default_slots"},
                    errs);
  }
  if (ml.is_object() && ml.contains("xgboost") && trainer.is_object()) {
    size_t i = 0;
    for (const auto& e : trainer.value("env", json::array())) {
      const std::string n = e.value("name", "");
      if (n == "DMLC_TRACKER_URI" || n == "DMLC_TRACKER_PORT" || n == "DMLC_TASK_ID" || n == "DMLC_NUM_WORKER")
        errs.push_back(field_forbidden("spec.trainer.env[" + std::to_string(i) + "]", n + " is reserved for the XGBoost runtime"));
      ++i;
    }
  }
  if (info.pod_group_policy.is_object() && info.pod_group_policy.contains("volcano")) {
    if (info.annotations.contains("scheduling.volcano.sh/queue-name") &&
        info.annotations["scheduling.volcano.sh/queue-name"] == "")
      errs.push_back(field_invalid("spec.annotations[scheduling.volcano.sh/queue-name]", "",
                             "Volcano queue name must not be empty"));
    for (const auto& rj : info.spec.value("replicatedJobs", json::array())) {
      const std::string pc = rj.value("template", json::object())
                                 .value("spec", json::object())
                                 .value("template", json::object())
                                 .value("spec", json::object())
                                 .value("priorityClassName", "");
      if (pc.empty()) continue;
      if (pc == "system-cluster-critical" || pc == "system-node-critical") break;
      if (!priority_class_exists(pc))
        errs.push_back(field_invalid("spec.templateSpec.priorityClassName", pc,
                               "PriorityClass \"" + pc + "\" doesn't exist: PriorityClass.scheduling.k8s.io \"" + pc +
                                   "\" not found"));
    }
  }
  return errs;
}

}  // namespace kubesim
