// The Kubeflow Trainer release doctor reads from the TrainJob and ClusterTrainingRuntime CRDs:
// the real v2.3.0 CRDs, and the same with the fields later releases added taken away or the
// fields of earlier releases put back (kubeflow/trainer manifests/base/crds/ at v2.0.0, v2.1.0,
// v2.2.0, v2.3.0: spec.podSpecOverrides, spec.podTemplateOverrides, spec.runtimePatches,
// spec.mlPolicy.torch.envInjection).
#include <catch2/catch.hpp>

#include "core/file.h"
#include "doctor/checks.h"
#include "support/paths.h"
#include "yaml/read.h"

using nlohmann::json;
using trainctl::doctor::trainer_generation;

namespace {

json crd(const std::string& dir, const std::string& name) {
  return trainctl::yaml::parse_all(trainctl::read_file(dir + "/crds/" + name), name).front();
}

json& spec_properties(json& crd) { return crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]; }

}  // namespace

TEST_CASE("Trainer's API generation from the fields of its CRDs", "[doctor][trainer]") {
  const std::string dir = trainctl::testing::require_schema_dir();
  json trainjob = crd(dir, "trainer.kubeflow.org_trainjobs.yaml");
  json runtime = crd(dir, "trainer.kubeflow.org_clustertrainingruntimes.yaml");
  json markers;
  CHECK(trainer_generation(trainjob, runtime, markers) == "v2.3 or later");
  CHECK(markers["spec.runtimePatches"] == true);
  CHECK(markers["spec.mlPolicy.torch.envInjection"] == true);
  CHECK(trainer_generation(trainjob, nullptr, markers) == "v2.2 or later");
  CHECK(trainer_generation(nullptr, runtime, markers).empty());

  // v2.2: torch is an object without properties (a structural schema prunes envInjection).
  json torch = spec_properties(runtime)["mlPolicy"]["properties"]["torch"];
  spec_properties(runtime)["mlPolicy"]["properties"]["torch"] = {{"type", "object"}};
  CHECK(trainer_generation(trainjob, runtime, markers) == "v2.2");
  CHECK(markers["spec.mlPolicy.torch.envInjection"] == false);

  // v2.1 had podTemplateOverrides, v2.0 podSpecOverrides, instead of runtimePatches.
  json& props = spec_properties(trainjob);
  json patches = props["runtimePatches"];
  props.erase("runtimePatches");
  props["podTemplateOverrides"] = {{"type", "array"}};
  CHECK(trainer_generation(trainjob, runtime, markers) == "v2.1");
  props.erase("podTemplateOverrides");
  props["podSpecOverrides"] = {{"type", "array"}};
  CHECK(trainer_generation(trainjob, runtime, markers) == "v2.0");
  props.erase("podSpecOverrides");
  CHECK(trainer_generation(trainjob, runtime, markers) == "not one of v2.0 to v2.3");
}
