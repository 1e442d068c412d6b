// training-operator v1.9.0's TFJob defaults and TF_CONFIG (see tf_config.h).
#include "kubesim/controllers/tf_config.h"

#include "core/text.h"
#include "kubesim/controllers/kubeflow_replicas.h"

namespace kubesim {

namespace {

constexpr int kTfDefaultPort = 2222;  // tensorflow_types.go TFJobDefaultPort
constexpr const char* kTfPortName = "tfjob-port";
constexpr const char* kTfContainer = "tensorflow";

// The replica types of a TFJob (tensorflow_types.go), in setTensorflowTypeNamesToCamelCase's order.
const char* const kTfTypes[] = {"PS", "Worker", "Chief", "Master", "Evaluator"};

std::string tf_address(const json& job, const std::string& rt_lower, int64_t i, int port) {
  // genClusterSpec: GenGeneralName + "." + namespace + ".svc" (+ "." CUSTOM_CLUSTER_DOMAIN of
  // the operator's environment, unset in the default deployment).
  return meta_name(job) + "-" + rt_lower + "-" + std::to_string(i) + "." + meta_ns(job) +
         ".svc:" + std::to_string(port);
}

}  // namespace

const json& tf_replica_specs(const json& job) { return replica_specs_of(job, "tfReplicaSpecs"); }

json tf_defaults(const json& job) {
  json out = with_replica_defaults(job, {"tfReplicaSpecs",
                                         {std::begin(kTfTypes), std::end(kTfTypes)},
                                         "Never",
                                         kTfContainer,
                                         kTfPortName,
                                         kTfDefaultPort});
  if (!out["spec"].contains("successPolicy")) out["spec"]["successPolicy"] = "";
  return out;
}

int tf_port(const json& defaulted_job, const std::string& rtype) {
  const json& rs = tf_replica_specs(defaulted_job).value(rtype, json::object());
  const json tmpl = rs.value("template", json::object());
  for (const auto& c : tmpl.value("spec", json::object()).value("containers", json::array())) {
    if (c.value("name", "") != kTfContainer) continue;
    for (const auto& p : c.value("ports", json::array()))
      if (p.value("name", "") == kTfPortName) return static_cast<int>(int_or(p, "containerPort", 0));
  }
  return kTfDefaultPort;
}

std::string tf_config_json(const json& defaulted_job, const std::string& rt_lower, int index) {
  const json& specs = tf_replica_specs(defaulted_job);
  json cluster = json::object();  // sorted keys, as encoding/json sorts map keys
  for (auto it = specs.begin(); it != specs.end(); ++it) {
    const std::string rt = trainctl::ascii_lower(it.key());
    json names = json::array();
    const int port = tf_port(defaulted_job, it.key());
    for (int64_t i = 0; i < int_or(*it, "replicas", 1); ++i)
      names.push_back(tf_address(defaulted_job, rt, i, port));
    cluster[rt] = names;
  }
  const std::string task =
      std::string("{\"type\":") + json(rt_lower).dump() + ",\"index\":" + std::to_string(index) + "}";
  if (!defaulted_job["spec"].value("enableDynamicWorker", false))
    return "{\"cluster\":" + cluster.dump() + ",\"task\":" + task + ",\"environment\":\"cloud\"}";
  // convertClusterSpecToSparseClusterSpec: SparseClusterSpec{Worker map, PS list}, PS starting
  // as an empty slice ([]); a worker's PS is clusterSpec["ps"], nil (null) without ps.
  json worker = json::object();
  json ps = json::array();
  if (rt_lower == "ps" && cluster.contains("ps") && index < static_cast<int>(cluster["ps"].size()))
    ps.push_back(cluster["ps"][index]);
  if (rt_lower == "worker") {
    ps = cluster.contains("ps") ? cluster["ps"] : json(nullptr);
    if (cluster.contains("worker") && index < static_cast<int>(cluster["worker"].size()))
      worker[std::to_string(index)] = cluster["worker"][index];
  }
  return "{\"cluster\":{\"worker\":" + worker.dump() + ",\"ps\":" + ps.dump() + "},\"task\":" + task + "}";
}

void set_tf_pod_env(const json& defaulted_job, json& pod_spec, const std::string& rt_lower, int index) {
  if (total_replica_count(tf_replica_specs(defaulted_job)) == 1) return;  // isDistributed
  if (!pod_spec.contains("containers") || !pod_spec["containers"].is_array()) return;
  for (auto& c : pod_spec["containers"]) {
    if (c.value("name", "") != kTfContainer) continue;
    if (!c.contains("env") || !c["env"].is_array()) c["env"] = json::array();
    c["env"].push_back({{"name", "TF_CONFIG"}, {"value", tf_config_json(defaulted_job, rt_lower, index)}});
    break;
  }
}

}  // namespace kubesim
