// Seed files and the large-cluster generator.
#include <fstream>

#include "kubesim/seed_real_size.h"
#include "support/paths.h"
#include "test_controllers_fixture.h"

using namespace kubesim;
using namespace kubesim::testing;

TEST_CASE("the demo seed is seed 000's cluster", "[seed]") {
  Store store;
  Simulation::ensure_types(store);
  SeedStats stats =
      load_seed_file(store, std::string(TRAINCTL_SOURCE_DIR) + "/tools/kubesim/seeds/demo.yaml");
  CHECK(stats.nodes == 6);
  CHECK(stats.pvcs == 1);
  const ResourceType* nodes = store.find("", "v1", "nodes");
  REQUIRE(nodes);
  int masters = 0, gpus = 0;
  for (const auto& n : store.list(*nodes, "").items) {
    if ((*n)["metadata"]["labels"].contains("node-role.kubernetes.io/master")) ++masters;
    const auto& cap = (*n)["status"]["capacity"];
    if (cap.contains("nvidia.com/gpu")) gpus += std::stoi(cap["nvidia.com/gpu"].get<std::string>());
    CHECK((*n)["status"]["addresses"][0]["type"] == "InternalIP");
  }
  CHECK(masters == 3);
  CHECK(gpus == 6);
  auto pvc = store.get(*store.find("", "v1", "persistentvolumeclaims"), "default", "training-data");
  REQUIRE(pvc);
  CHECK((*pvc)["status"]["phase"] == "Bound");
  CHECK((*pvc)["spec"]["accessModes"][0] == "ReadWriteMany");
  // The annotations Arena's data list reads for DESCRIPTION and OWNER (kubeflow/arena v0.15.5
  // pkg/datahouse/list.go), so that the demo's data list fills both columns.
  CHECK((*pvc)["metadata"]["annotations"].value("description", "") == "MNIST training and test images");
  CHECK((*pvc)["metadata"]["annotations"].value("owner", "") == "ml-platform");
}

TEST_CASE("seed files carry namespaces, PVC annotations, taints and manifests", "[seed]") {
  const auto dir = trainctl::testing::make_temp_dir("kubesim-seed");
  const std::string path = dir + "/seed.yaml";
  std::ofstream(path) << R"(nodes:
  - {name: gpu-a, ip: 10.0.0.5, gpus: 8, gpuResource: aliyun.com/gpu, labels: {pool: a},
     taints: [{key: dedicated, value: ml, effect: NoSchedule}]}
namespaces: [team-a]
pvcs:
  - {name: data, namespace: team-a, accessModes: [ReadWriteOnce], description: "shared data", owner: alice}
objects:
  - apiVersion: v1
    kind: ConfigMap
    metadata: {name: settings, namespace: team-a}
    data: {k: v}
)";
  Store store;
  SeedStats stats = load_seed_file(store, path);
  CHECK(stats.nodes == 1);
  CHECK(stats.namespaces == 1);
  CHECK(stats.objects == 1);
  auto node = store.get(*store.find("", "v1", "nodes"), "", "gpu-a");
  REQUIRE(node);
  CHECK((*node)["status"]["allocatable"]["aliyun.com/gpu"] == "8");
  CHECK((*node)["spec"]["taints"][0]["key"] == "dedicated");
  CHECK((*node)["metadata"]["labels"]["pool"] == "a");
  auto pvc = store.get(*store.find("", "v1", "persistentvolumeclaims"), "team-a", "data");
  REQUIRE(pvc);
  CHECK((*pvc)["metadata"]["annotations"]["description"] == "shared data");
  CHECK((*pvc)["metadata"]["annotations"]["owner"] == "alice");
  CHECK(store.get(*store.find("", "v1", "configmaps"), "team-a", "settings"));

  std::ofstream(path) << "objects:\n  - {apiVersion: example.com/v1, kind: Gadget, metadata: {name: x}}\n";
  CHECK_THROWS_WITH(load_seed_file(store, path), Catch::Contains("unknown kind Gadget"));
  CHECK_THROWS(load_seed_file(store, dir + "/missing.yaml"));
}

TEST_CASE("parse_generate_options", "[seed]") {
  GenerateOptions o = parse_generate_options("nodes=10,jobs=20,pods=300,gpus=4");
  CHECK(o.nodes == 10);
  CHECK(o.jobs == 20);
  CHECK(o.pods == 300);
  CHECK(o.gpus_per_node == 4);
  CHECK_THROWS_AS(parse_generate_options("nodes=ten"), std::invalid_argument);
  CHECK_THROWS_AS(parse_generate_options("racks=3"), std::invalid_argument);
}

TEST_CASE("a small generated cluster is consistent and left alone by the controllers", "[seed]") {
  SimFixture f(false);
  GenerateOptions o;
  o.nodes = 20;
  o.jobs = 30;
  o.pods = 200;
  o.gpus_per_node = 8;
  o.namespaces = 3;
  GenerateStats stats = generate_cluster(f.store, o);
  CHECK(stats.nodes == 20);
  CHECK(stats.jobs == 30);
  CHECK(stats.pods == 200);
  // No node holds more GPUs than it has.
  std::map<std::string, int> used;
  for (const auto& p : f.store.list(f.pods(), "").items) {
    if ((*p)["status"]["phase"] != "Running") continue;
    const auto& c = (*p)["spec"]["containers"][0];
    if (c.contains("resources") && c["resources"].contains("limits"))
      used[(*p)["spec"]["nodeName"]] += c["resources"]["limits"]["nvidia.com/gpu"].get<int>();
  }
  for (const auto& [node, n] : used) CHECK(n <= 8);
  f.sim = std::make_unique<Simulation>(f.store, f.logs, [] {
    SimulationOptions s;
    s.manual_clock = true;
    return s;
  }());
  f.step(30s);
  CHECK(f.store.list(f.pods(), "").items.size() == 200);
}

TEST_CASE("the generator splits pods over jobs and namespaces", "[seed]") {
  Store store;
  GenerateOptions o;
  o.nodes = 100;
  o.jobs = 200;
  o.pods = 3000;
  GenerateStats stats = generate_cluster(store, o);
  CHECK(stats.nodes == 100);
  CHECK(stats.jobs == 200);
  CHECK(stats.pods == 3000);
  CHECK(store.list(*store.find("", "v1", "pods"), "").items.size() == 3000);
  CHECK(store.list(*store.find("", "v1", "pods"), "team-7").items.size() == 150);
  size_t launchers = 0, masters = 0;
  for (const auto& p : store.list(*store.find("", "v1", "pods"), "").items) {
    const auto& l = (*p)["metadata"]["labels"];
    if (l.value("training.kubeflow.org/job-role", "") == "launcher") ++launchers;
    if (l.value("training.kubeflow.org/job-role", "") == "master") ++masters;
  }
  CHECK(masters == 100);   // half of the jobs are PyTorchJobs
  CHECK(launchers == 60);  // three in ten are MPIJobs
}

namespace {

// What trainctl reads of a generated pod: its labels (but uids), phase, node, GPU limits, the newest
// condition transition and the container states' reasons.
json read_part(const json& pod) {
  std::string newest;
  for (const auto& c : pod["status"]["conditions"]) newest = std::max(newest, c["lastTransitionTime"].get<std::string>());
  json states = json::array();
  for (const auto& c : pod["status"]["containerStatuses"]) states.push_back({c["state"].begin().key(), c["restartCount"]});
  json labels = pod["metadata"]["labels"];
  for (const char* uid : {"batch.kubernetes.io/controller-uid", "controller-uid", "jobset.sigs.k8s.io/jobset-uid"})
    labels.erase(uid);  // each store makes its own uids
  return {labels, pod["status"]["phase"], pod["spec"]["nodeName"], pod["status"]["hostIP"],
          pod["spec"]["containers"][0].value("resources", json::object()).value("limits", json::object()),
          newest, states};
}

}  // namespace

TEST_CASE("objects=real dresses the same cluster as kube-apiserver returns it, several times the bytes", "[seed]") {
  CHECK(parse_generate_options("objects=real").real_objects);
  CHECK_FALSE(parse_generate_options("objects=lean").real_objects);
  CHECK(parse_generate_options("mix=pytorch").pytorch_only);
  CHECK_THROWS_AS(parse_generate_options("objects=huge"), std::invalid_argument);
  CHECK_THROWS_AS(parse_generate_options("mix=tf"), std::invalid_argument);
  GenerateOptions o;
  o.nodes = 20;
  o.jobs = 30;
  o.pods = 100;
  o.trainjobs = 3;
  // Both clusters dated from one instant: a slow build may cross a second between the two.
  o.now = std::time(nullptr);
  Store lean, real;
  generate_cluster(lean, o);
  o.real_objects = true;
  generate_cluster(real, o);
  const ResourceType& pods = *lean.find("", "v1", "pods");
  const auto lean_pods = lean.list(pods, "").items, real_pods = real.list(pods, "").items;
  REQUIRE(lean_pods.size() == real_pods.size());
  size_t lean_bytes = 0, real_bytes = 0;
  for (size_t i = 0; i < lean_pods.size(); ++i) {
    const json& l = *lean_pods[i];
    const json& r = *real_pods[i];
    lean_bytes += l.dump().size();
    real_bytes += r.dump().size();
    CHECK(read_part(l) == read_part(r));
    // kubernetes/kubectl pkg/cmd/wait/wait_test.go's pod: these are there on a real one.
    CHECK(r["metadata"]["managedFields"].size() == 2);
    CHECK(r["metadata"]["managedFields"][1]["subresource"] == "status");
    CHECK(r["spec"]["serviceAccountName"] == "default");
    CHECK(r["spec"]["volumes"].back()["name"].get<std::string>().rfind("kube-api-access-", 0) == 0);
    CHECK(r["spec"]["tolerations"].back()["tolerationSeconds"] == 300);
    CHECK(r["status"]["containerStatuses"][0]["imageID"].get<std::string>().find("@sha256:") != std::string::npos);
    CHECK(r["status"]["conditions"].size() == 5);
  }
  CHECK(real_bytes >= 4 * lean_bytes);
  // PyTorch pods carry training-operator's env.
  bool master_env = false;
  for (const auto& p : real_pods)
    if ((*p)["metadata"]["name"] == "pytorch-000000-master-0")
      for (const auto& e : (*p)["spec"]["containers"][0]["env"]) master_env = master_env || e["name"] == "MASTER_ADDR";
  CHECK(master_env);
  const ResourceType& nodes = *lean.find("", "v1", "nodes");
  const json lean_node = *lean.list(nodes, "").items.back(), real_node = *real.list(nodes, "").items.back();
  CHECK(real_node["status"]["capacity"] == lean_node["status"]["capacity"]);
  CHECK(real_node["status"]["addresses"] == lean_node["status"]["addresses"]);
  CHECK(real_node["status"]["images"].size() == 24);
  CHECK(real_node.dump().size() >= 4 * lean_node.dump().size());
}

TEST_CASE("fields_v1 names each key, and list elements by their merge key", "[seed]") {
  const json f = fields_v1({{"spec", {{"containers", json::array({{{"name", "c"}, {"image", "x"}}})}, {"nodeName", "n"}}}});
  CHECK(f == json::parse(R"({"f:spec": {"f:nodeName": {},
      "f:containers": {".": {}, "k:{\"name\":\"c\"}": {".": {}, "f:image": {}, "f:name": {}}}}})"));
}

// The benchmark-size cluster: run with `kubesim_tests "[scale]"` (hidden by default, as it
// takes minutes in a Debug build).
TEST_CASE("the generator preloads 5,000 nodes, 10,000 jobs and 150,000 pods", "[.][seed][scale]") {
  Store store;
  const auto start = std::chrono::steady_clock::now();
  GenerateStats stats = generate_cluster(store, GenerateOptions{});
  const auto took =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
  WARN("generated 5,000 nodes / 10,000 jobs / 150,000 pods in " << took.count() << " ms");
  CHECK(stats.nodes == 5000);
  CHECK(stats.jobs == 10000);
  CHECK(stats.pods == 150000);
  CHECK(store.list(*store.find("", "v1", "nodes"), "").items.size() == 5000);
  CHECK(store.list(*store.find("", "v1", "pods"), "").items.size() == 150000);
  size_t jobs = store.list(*store.find("kubeflow.org", "v1", "pytorchjobs"), "").items.size() +
                store.list(*store.find("kubeflow.org", "v2beta1", "mpijobs"), "").items.size() +
                store.list(*store.find("batch.volcano.sh", "v1alpha1", "jobs"), "").items.size();
  CHECK(jobs == 10000);
}
