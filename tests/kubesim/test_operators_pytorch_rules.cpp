// PyTorchJob rules of training-operator v1.9.0 that decide whether a job trains: the env of
// pkg/controller.v1/pytorch/envvar.go, master.go, elastic.go in their order, the defaults of
// pkg/apis/kubeflow.org/v1/pytorch_defaults.go, and the pods/services it looks at
// (pytorchjob_controller.go GetPodsForJob / GetServicesForJob).
#include "test_controllers_fixture.h"

using namespace kubesim;
using namespace kubesim::testing;

namespace {

json job_with(const std::string& name, json replica_specs, json extra_spec = json::object()) {
  json spec = {{"pytorchReplicaSpecs", std::move(replica_specs)}};
  for (auto it = extra_spec.begin(); it != extra_spec.end(); ++it) spec[it.key()] = *it;
  return {{"apiVersion", "kubeflow.org/v1"},
          {"kind", "PyTorchJob"},
          {"metadata", {{"name", name}, {"namespace", "default"}}},
          {"spec", spec}};
}

json replica(int n, const std::string& container = "pytorch") {
  return {{"replicas", n},
          {"template",
           {{"spec", {{"containers", json::array({gpu_container(container, "python train.py", 0)})}}}}}};
}

// The env names and values of a container, in order ("<valueFrom>" for references).
std::vector<std::pair<std::string, std::string>> env_of(const json& container) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& e : container.value("env", json::array()))
    out.emplace_back(e.value("name", ""), e.value("value", "<valueFrom>"));
  return out;
}

using Env = std::vector<std::pair<std::string, std::string>>;

}  // namespace

TEST_CASE("PyTorchJob env: envvar.go's variables, values and order", "[controllers][pytorch][upstream]") {
  SimFixture f;
  f.create("kubeflow.org", "v1", "pytorchjobs",
           job_with("envjob", {{"Master", replica(1)}, {"Worker", replica(2)}}));
  f.step(0ms);
  // nprocPerNode defaults to "auto": WORLD_SIZE = replicas x 1, PET_NPROC_PER_NODE = auto.
  const Env master = {{"PYTHONUNBUFFERED", "1"},
                      {"MASTER_PORT", "23456"},
                      {"PET_MASTER_PORT", "23456"},
                      {"MASTER_ADDR", "envjob-master-0"},
                      {"PET_MASTER_ADDR", "envjob-master-0"},
                      {"WORLD_SIZE", "3"},
                      {"RANK", "0"},
                      {"PET_NODE_RANK", "0"},
                      {"PET_NPROC_PER_NODE", "auto"},
                      {"PET_NNODES", "3"}};
  CHECK(env_of(f.pod("envjob-master-0")["spec"]["containers"][0]) == master);
  Env worker1 = master;
  worker1[6].second = "2";  // RANK = index + 1 with a Master
  worker1[7].second = "2";
  CHECK(env_of(f.pod("envjob-worker-1")["spec"]["containers"][0]) == worker1);
}

TEST_CASE("PyTorchJob env without a Master: no master variables, nproc and nnodes still set",
          "[controllers][pytorch][upstream]") {
  SimFixture f;
  f.create("kubeflow.org", "v1", "pytorchjobs", job_with("nomaster", {{"Worker", replica(2)}}));
  f.step(0ms);
  const Env want = {{"PYTHONUNBUFFERED", "1"}, {"PET_NPROC_PER_NODE", "auto"}, {"PET_NNODES", "2"}};
  CHECK(env_of(f.pod("nomaster-worker-0")["spec"]["containers"][0]) == want);
  // No Master: no init container waiting for one.
  CHECK_FALSE(f.pod("nomaster-worker-0")["spec"].contains("initContainers"));
}

TEST_CASE("PyTorchJob WORLD_SIZE uses strconv.Atoi of nprocPerNode (1 when not an integer)",
          "[controllers][pytorch][upstream]") {
  SimFixture f;
  f.create("kubeflow.org", "v1", "pytorchjobs",
           job_with("np4x", {{"Master", replica(1)}, {"Worker", replica(1)}}, {{"nprocPerNode", "4x"}}));
  f.create("kubeflow.org", "v1", "pytorchjobs",
           job_with("np4", {{"Master", replica(1)}, {"Worker", replica(1)}}, {{"nprocPerNode", "4"}}));
  f.step(0ms);
  CHECK(env_value(f.pod("np4x-master-0")["spec"]["containers"][0], "WORLD_SIZE") == "2");
  CHECK(env_value(f.pod("np4x-master-0")["spec"]["containers"][0], "PET_NPROC_PER_NODE") == "4x");
  CHECK(env_value(f.pod("np4-worker-0")["spec"]["containers"][0], "WORLD_SIZE") == "8");
}

TEST_CASE("PyTorchJob defaults: port on the pytorch container, camel-cased replica types, init container",
          "[controllers][pytorch][upstream]") {
  SimFixture f;
  f.create("kubeflow.org", "v1", "pytorchjobs",
           job_with("lower", {{"master", replica(1)}, {"WORKER", replica(1)}}));
  f.step(0ms);
  const json m = f.pod("lower-master-0");
  CHECK(env_value(m["spec"]["containers"][0], "MASTER_ADDR") == "lower-master-0");
  const json port = m["spec"]["containers"][0]["ports"][0];
  CHECK(port["name"] == "pytorchjob-port");
  CHECK(port["containerPort"] == 23456);
  const json w = f.pod("lower-worker-0");
  CHECK(env_value(w["spec"]["containers"][0], "RANK") == "1");
  REQUIRE(w["spec"].contains("initContainers"));
  const json ic = w["spec"]["initContainers"].back();
  CHECK(ic["name"] == "init-pytorch");
  CHECK(ic["image"] == "alpine:3.10");
  CHECK(ic["command"][2].get<std::string>().find("nslookup lower-master-0") != std::string::npos);
  // The spec stored is left as the user wrote it: the defaults live in the operator's copy.
  json stored = f.get("kubeflow.org", "v1", "pytorchjobs", "lower");
  CHECK(stored["spec"]["pytorchReplicaSpecs"].contains("master"));
  CHECK_FALSE(stored["spec"].contains("nprocPerNode"));
}

TEST_CASE("PyTorchJob with a Master but no container named pytorch gets no pods (port not found)",
          "[controllers][pytorch][upstream]") {
  SimFixture f;
  f.create("kubeflow.org", "v1", "pytorchjobs",
           job_with("noport", {{"Master", replica(1, "trainer")}, {"Worker", replica(1, "trainer")}}));
  f.step(5s);
  CHECK_FALSE(f.find("", "v1", "pods", "noport-master-0"));
  CHECK_FALSE(f.find("", "v1", "pods", "noport-worker-0"));
}

TEST_CASE("Elastic PyTorchJob: PET_NNODES is the min:max range and the rendezvous is set",
          "[controllers][pytorch][upstream]") {
  SimFixture f;
  f.create("kubeflow.org", "v1", "pytorchjobs",
           job_with("elastic", {{"Worker", replica(2)}},
                    {{"elasticPolicy", {{"minReplicas", 1}, {"maxReplicas", 3}, {"maxRestarts", 5}}}}));
  f.step(0ms);
  const Env want = {{"PYTHONUNBUFFERED", "1"},
                    {"PET_NPROC_PER_NODE", "auto"},
                    {"PET_RDZV_ENDPOINT", "elastic-worker-0:23456"},
                    {"PET_RDZV_BACKEND", "c10d"},
                    {"PET_NNODES", "1:3"},
                    {"PET_MAX_RESTARTS", "5"}};
  CHECK(env_of(f.pod("elastic-worker-1")["spec"]["containers"][0]) == want);
}

TEST_CASE("training-operator v1.9.0 neither adopts nor releases a Service with other labels",
          "[controllers][pytorch][upstream]") {
  // pytorchjob_controller.go GetServicesForJob lists the Services matching GenLabels only (it
  // overrides common/service.go's ControllerRefManager), so a TensorBoard Service that names
  // the job as its controller keeps that ownerReference, whatever its labels.
  SimFixture f;
  json job = f.create("kubeflow.org", "v1", "pytorchjobs",
                      job_with("tbjob", {{"Master", replica(1)}, {"Worker", replica(1)}}));
  json ref = {{"apiVersion", "kubeflow.org/v1"}, {"kind", "PyTorchJob"}, {"name", "tbjob"},
              {"uid", job["metadata"]["uid"]},   {"controller", true},   {"blockOwnerDeletion", true}};
  f.create("", "v1", "services",
           {{"apiVersion", "v1"},
            {"kind", "Service"},
            {"metadata",
             {{"name", "tbjob-tensorboard"},
              {"namespace", "default"},
              {"labels", {{"app", "pytorchjob"}, {"release", "tbjob"}, {"role", "tensorboard"}}},
              {"ownerReferences", json::array({ref})}}},
            {"spec", {{"selector", {{"role", "tensorboard"}}}, {"ports", json::array({{{"port", 6006}}})}}}});
  f.step(5s);
  json svc = f.get("", "v1", "services", "tbjob-tensorboard");
  REQUIRE(svc["metadata"]["ownerReferences"].size() == 1);
  CHECK(svc["metadata"]["ownerReferences"][0]["uid"] == job["metadata"]["uid"]);
  CHECK(svc["metadata"]["labels"]["role"] == "tensorboard");
  // The operator's own Service per replica, with the pytorch container's named port.
  json ms = f.get("", "v1", "services", "tbjob-master-0");
  CHECK(ms["spec"]["ports"][0]["name"] == "pytorchjob-port");
  CHECK(ms["spec"]["ports"][0]["port"] == 23456);
}
