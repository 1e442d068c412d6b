// The strategic merge of a TrainJob's runtimePatches into its runtime's JobSet template, with
// the merge keys of the jobset v1alpha2 and core/v1 Go types (k8s.io/apimachinery
// strategicpatch), and resourcesPerNode merged per resource name. Expected values follow the
// types' patchStrategy tags by hand.
#include <catch2/catch.hpp>

#include "kubesim/controllers/runtime_merge.h"

using namespace kubesim;

namespace {

json merge_spec() {
  return json::parse(R"({
    "replicatedJobs": [
      {"name": "dataset-initializer", "template": {"spec": {"template": {"spec": {
        "containers": [{"name": "dataset-initializer", "image": "init:1"}]}}}}},
      {"name": "node", "template": {"metadata": {"labels": {"a": "1"}}, "spec": {"template": {"spec": {
        "tolerations": [{"key": "old", "operator": "Exists"}],
        "volumes": [{"name": "data", "emptyDir": {}}],
        "containers": [
          {"name": "node", "image": "torch:1", "command": ["torchrun", "a.py"],
           "env": [{"name": "A", "value": "1"}, {"name": "B", "value": "2"}],
           "volumeMounts": [{"name": "data", "mountPath": "/data"}]},
          {"name": "sidecar", "image": "side:1"}]}}}}}
    ]})");
}

json patch_of(const json& spec) {
  return json::array({{{"manager", "example.com/cli"}, {"trainingRuntimeSpec", {{"template", {{"spec", spec}}}}}}});
}

}  // namespace

TEST_CASE("runtime patches: containers, env and volumes merge by name, mounts by mountPath", "[trainer][merge]") {
  json spec = merge_spec();
  merge_runtime_patches(spec, patch_of(json::parse(R"({"replicatedJobs": [{"name": "node", "template": {"spec": {
      "template": {"spec": {
        "volumes": [{"name": "cache", "emptyDir": {}}],
        "containers": [{"name": "node",
          "env": [{"name": "B", "value": "20"}, {"name": "C", "value": "3"}],
          "volumeMounts": [{"name": "cache2", "mountPath": "/data"}, {"name": "cache", "mountPath": "/cache"}]}]}}}}}]})")));
  const json& pod = spec["replicatedJobs"][1]["template"]["spec"]["template"]["spec"];
  CHECK(pod["volumes"] == json::parse(R"([{"name": "data", "emptyDir": {}}, {"name": "cache", "emptyDir": {}}])"));
  REQUIRE(pod["containers"].size() == 2);
  const json& node = pod["containers"][0];
  CHECK(node["image"] == "torch:1");                                  // untouched fields stay
  CHECK(node["command"] == json::array({"torchrun", "a.py"}));
  CHECK(node["env"] == json::parse(R"([{"name": "A", "value": "1"}, {"name": "B", "value": "20"},
                                       {"name": "C", "value": "3"}])"));
  // mountPath is the key: /data changes its volume, /cache is added.
  CHECK(node["volumeMounts"] == json::parse(R"([{"name": "cache2", "mountPath": "/data"},
                                                {"name": "cache", "mountPath": "/cache"}])"));
  CHECK(pod["containers"][1] == json::parse(R"({"name": "sidecar", "image": "side:1"})"));
}

TEST_CASE("runtime patches: tolerations are replaced, maps merge, a null deletes", "[trainer][merge]") {
  json spec = merge_spec();
  merge_runtime_patches(spec, patch_of(json::parse(R"({"replicatedJobs": [{"name": "node", "template": {
      "metadata": {"labels": {"b": "2", "a": null}},
      "spec": {"template": {"spec": {"tolerations": [{"key": "new", "operator": "Exists"}],
                                     "nodeSelector": {"pool": "gpu"}}}}}}]})")));
  const json& rj = spec["replicatedJobs"][1];
  CHECK(rj["template"]["metadata"]["labels"] == json::parse(R"({"b": "2"})"));
  const json& pod = rj["template"]["spec"]["template"]["spec"];
  CHECK(pod["tolerations"] == json::parse(R"([{"key": "new", "operator": "Exists"}])"));
  CHECK(pod["nodeSelector"] == json::parse(R"({"pool": "gpu"})"));
}

TEST_CASE("runtime patches apply in order and keep the runtime's replicatedJobs order", "[trainer][merge]") {
  json spec = merge_spec();
  json patches = patch_of(json::parse(R"({"replicatedJobs": [{"name": "node", "template": {"spec": {"template": {
      "spec": {"nodeSelector": {"pool": "a"}}}}}}]})"));
  patches.push_back(patch_of(json::parse(R"({"replicatedJobs": [{"name": "node", "template": {"spec": {"template": {
      "spec": {"nodeSelector": {"pool": "b", "zone": "z"}}}}}}, {"name": "dataset-initializer",
      "template": {"spec": {"template": {"spec": {"nodeSelector": {"cpu": "yes"}}}}}}]})"))[0]);
  merge_runtime_patches(spec, patches);
  REQUIRE(spec["replicatedJobs"].size() == 2);
  CHECK(spec["replicatedJobs"][0]["name"] == "dataset-initializer");
  CHECK(spec["replicatedJobs"][1]["name"] == "node");
  CHECK(spec["replicatedJobs"][1]["template"]["spec"]["template"]["spec"]["nodeSelector"] ==
        json::parse(R"({"pool": "b", "zone": "z"})"));
  CHECK(spec["replicatedJobs"][0]["template"]["spec"]["template"]["spec"]["nodeSelector"] ==
        json::parse(R"({"cpu": "yes"})"));
}

TEST_CASE("runtime patches: a replicated job the runtime lacks is appended, then sorted first", "[trainer][merge]") {
  // mergeRuntimePatches' order map gives 0 to a name it does not know (Go's map lookup).
  json spec = merge_spec();
  merge_runtime_patches(spec, patch_of(json::parse(R"({"replicatedJobs": [{"name": "extra"}]})")));
  REQUIRE(spec["replicatedJobs"].size() == 3);
  CHECK(spec["replicatedJobs"][0]["name"] == "dataset-initializer");
  CHECK(spec["replicatedJobs"][1]["name"] == "extra");
  CHECK(spec["replicatedJobs"][2]["name"] == "node");
}

TEST_CASE("runtime patches: $patch directives replace or delete", "[trainer][merge]") {
  json spec = merge_spec();
  merge_runtime_patches(spec, patch_of(json::parse(R"({"replicatedJobs": [{"name": "node", "template": {"spec": {
      "template": {"spec": {"containers": [{"name": "sidecar", "$patch": "delete"}],
                            "volumes": [{"name": "data", "$patch": "delete"}]}}}}}]})")));
  const json& pod = spec["replicatedJobs"][1]["template"]["spec"]["template"]["spec"];
  REQUIRE(pod["containers"].size() == 1);
  CHECK(pod["containers"][0]["name"] == "node");
  CHECK(pod["volumes"].empty());
}

TEST_CASE("resourcesPerNode merges per resource into the container's requirements", "[trainer][merge]") {
  const json base = json::parse(R"({"limits": {"cpu": "4", "memory": "8Gi"}, "requests": {"cpu": "2"}})");
  const json merged = merge_resource_requirements(base, json::parse(R"({"limits": {"nvidia.com/gpu": 2, "cpu": "8"}})"));
  CHECK(merged == json::parse(R"({"limits": {"cpu": "8", "memory": "8Gi", "nvidia.com/gpu": 2},
                                  "requests": {"cpu": "2"}})"));
  CHECK(merge_resource_requirements(json::object(), json::object()) == json::object());
}
