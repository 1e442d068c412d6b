// training-operator v1.9.0's PyTorchJob defaults and pod env (see pytorch_env.h).
#include "kubesim/controllers/pytorch_env.h"

#include <cctype>
#include <climits>

#include "kubesim/controllers/kubeflow_replicas.h"

namespace kubesim {

namespace {

constexpr int kDefaultPort = 23456;  // pytorch_types.go PyTorchJobDefaultPort
constexpr const char* kPortName = "pytorchjob-port";
constexpr const char* kContainerName = "pytorch";
constexpr const char* kInitImage = "alpine:3.10";  // pkg/config/config.go default
constexpr int kInitMaxTries = 100;                 // pkg/config/config.go default

void add(json& env, const std::string& name, const std::string& value) {
  env.push_back({{"name", name}, {"value", value}});
}

}  // namespace

std::optional<long long> go_atoi(const std::string& s) {
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  if (i == s.size()) return std::nullopt;
  for (size_t j = i; j < s.size(); ++j)
    if (!std::isdigit(static_cast<unsigned char>(s[j]))) return std::nullopt;
  try {
    return std::stoll(s);
  } catch (...) {
    return std::nullopt;  // out of range: strconv.Atoi fails too
  }
}

json pytorch_defaults(const json& job) {
  json out = with_replica_defaults(
      job,
      {"pytorchReplicaSpecs", {"Master", "Worker"}, "OnFailure", kContainerName, kPortName, kDefaultPort});
  json& spec = out["spec"];
  json& specs = spec["pytorchReplicaSpecs"];
  // setElasticPolicy
  if (spec.contains("elasticPolicy") && spec["elasticPolicy"].is_object()) {
    json& ep = spec["elasticPolicy"];
    const bool has_min = ep.contains("minReplicas") && !ep["minReplicas"].is_null();
    const bool has_max = ep.contains("maxReplicas") && !ep["maxReplicas"].is_null();
    if (has_max && !has_min)
      ep["minReplicas"] = ep["maxReplicas"];
    else if (has_min && !has_max)
      ep["maxReplicas"] = ep["minReplicas"];
    else if (!has_min && !has_max && specs.contains("Worker")) {
      ep["minReplicas"] = specs["Worker"]["replicas"];
      ep["maxReplicas"] = specs["Worker"]["replicas"];
    }
  }
  // setDefaultNprocPerNode: unless the elastic policy sets its own nProcPerNode.
  const bool elastic = spec.contains("elasticPolicy") && spec["elasticPolicy"].is_object();
  const bool elastic_nproc = elastic && spec["elasticPolicy"].contains("nProcPerNode") &&
                             !spec["elasticPolicy"]["nProcPerNode"].is_null();
  if (!elastic_nproc && (!spec.contains("nprocPerNode") || spec["nprocPerNode"].is_null()))
    spec["nprocPerNode"] = "auto";
  return out;
}

std::optional<int> pytorch_port(const json& job, const std::string& rtype) {
  const json specs = job["spec"].value("pytorchReplicaSpecs", json::object());
  if (!specs.contains(rtype)) return std::nullopt;
  const json tmpl = specs[rtype].value("template", json::object());
  for (const auto& c : tmpl.value("spec", json::object()).value("containers", json::array())) {
    if (c.value("name", "") != kContainerName) continue;
    for (const auto& p : c.value("ports", json::array()))
      if (p.value("name", "") == kPortName) return static_cast<int>(int_or(p, "containerPort", 0));
  }
  return std::nullopt;
}

bool set_pytorch_pod_env(const json& job, json& pod_spec, const std::string& rt_lower, int index) {
  const json& spec = job["spec"];
  const json specs = spec.value("pytorchReplicaSpecs", json::object());
  const bool has_master = specs.contains("Master");
  const int64_t total = total_replica_count(specs);
  const bool has_nproc = spec.contains("nprocPerNode") && spec["nprocPerNode"].is_string();
  const std::string nproc_str = has_nproc ? spec["nprocPerNode"].get<std::string>() : "";
  // getNprocPerNodeInt: 1 when unset or not an integer ("auto").
  long long nproc = 1;
  if (has_nproc)
    if (auto n = go_atoi(nproc_str)) nproc = *n;
  const long long world_size = total * nproc;
  const std::string master_addr = meta_name(job) + "-master-0";
  std::optional<int> master_port;
  if (has_master && !(master_port = pytorch_port(job, "Master"))) return false;
  const bool elastic = spec.contains("elasticPolicy") && spec["elasticPolicy"].is_object();

  if (!pod_spec.contains("containers") || !pod_spec["containers"].is_array()) return true;
  for (auto& c : pod_spec["containers"]) {
    if (!c.contains("env") || !c["env"].is_array()) c["env"] = json::array();
    json& env = c["env"];
    add(env, "PYTHONUNBUFFERED", "1");
    if (has_master) {
      // master.go MasterEnvVarGenerator, then WORLD_SIZE, RANK, PET_NODE_RANK (envvar.go).
      add(env, "MASTER_PORT", std::to_string(*master_port));
      add(env, "PET_MASTER_PORT", std::to_string(*master_port));
      add(env, "MASTER_ADDR", master_addr);
      add(env, "PET_MASTER_ADDR", master_addr);
      const int rank = rt_lower == "worker" ? index + 1 : index;
      add(env, "WORLD_SIZE", std::to_string(world_size));
      add(env, "RANK", std::to_string(rank));
      add(env, "PET_NODE_RANK", std::to_string(rank));
    }
    if (has_nproc) add(env, "PET_NPROC_PER_NODE", nproc_str);
    if (!elastic) {
      add(env, "PET_NNODES", std::to_string(total));
      continue;
    }
    // elastic.go ElasticEnvVarGenerator.Generate
    const json& ep = spec["elasticPolicy"];
    std::string host = meta_name(job) + "-worker-0";
    if (ep.contains("rdzvHost") && ep["rdzvHost"].is_string()) host = ep["rdzvHost"];
    std::optional<int> port;
    if (ep.contains("rdzvPort") && ep["rdzvPort"].is_number())
      port = ep["rdzvPort"].get<int>();
    else
      port = pytorch_port(job, "Worker");
    if (!port) return false;
    add(env, "PET_RDZV_ENDPOINT", host + ":" + std::to_string(*port));
    add(env, "PET_RDZV_BACKEND", ep.value("rdzvBackend", "c10d"));
    add(env, "PET_NNODES",
        std::to_string(int_or(ep, "minReplicas", 0)) + ":" + std::to_string(int_or(ep, "maxReplicas", 0)));
    if (ep.contains("maxRestarts") && ep["maxRestarts"].is_number())
      add(env, "PET_MAX_RESTARTS", std::to_string(int_or(ep, "maxRestarts", 0)));
    if (ep.contains("nProcPerNode") && ep["nProcPerNode"].is_number())
      add(env, "PET_NPROC_PER_NODE", std::to_string(int_or(ep, "nProcPerNode", 0)));
    if (ep.contains("rdzvId") && ep["rdzvId"].is_string()) add(env, "PET_RDZV_ID", ep["rdzvId"]);
    if (ep.contains("rdzvConf") && ep["rdzvConf"].is_array() && !ep["rdzvConf"].empty()) {
      std::string val;
      for (const auto& kv : ep["rdzvConf"]) val += kv.value("key", "") + "=" + kv.value("value", "") + ",";
      val.pop_back();
      add(env, "PET_RDZV_CONF", val);
    }
    if (ep.value("standalone", false)) add(env, "PET_STANDALONE", "");
  }
  // initcontainer.go setInitContainer: workers of a job with a Master wait for its DNS name.
  if (has_master && rt_lower == "worker") {
    if (!pod_spec.contains("initContainers") || !pod_spec["initContainers"].is_array())
      pod_spec["initContainers"] = json::array();
    pod_spec["initContainers"].push_back(
        {{"name", "init-pytorch"},
         {"image", kInitImage},
         {"imagePullPolicy", "IfNotPresent"},
         {"resources",
          {{"limits", {{"cpu", "100m"}, {"memory", "20Mi"}}},
           {"requests", {{"cpu", "50m"}, {"memory", "10Mi"}}}}},
         {"command",
          json::array({"sh", "-c",
                       "err=1;for i in $(seq " + std::to_string(kInitMaxTries) + "); do if nslookup " +
                           master_addr +
                           "; then err=0 && break; fi;echo waiting for master; sleep 2; done; exit $err"})}});
  }
  return true;
}

}  // namespace kubesim
