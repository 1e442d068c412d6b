// Unknown fields under the three fieldValidation modes, and pruning them.
#include <catch2/catch.hpp>

#include "fixtures.h"
#include "manifests.h"

using namespace trainctl::schema;
using namespace trainctl::schema::test;

namespace {

// kPyTorchJob with one unknown field at each depth; returns the paths added.
std::vector<std::string> add_unknown_fields(nlohmann::json& obj) {
  obj["spec"]["foo"] = "bar";
  obj["spec"]["runPolicy"]["cleanupPolicy"] = "All";  // typo of cleanPodPolicy
  auto& master = obj["spec"]["pytorchReplicaSpecs"]["Master"];
  master["template"]["spec"]["containers"][0]["imagePullPolicyy"] = "Always";
  master["template"]["spec"]["containers"][0]["resources"]["limitz"] = {{"cpu", 1}};
  master["template"]["spec"]["volumes"][1]["emptyDir"]["size"] = "1Gi";
  master["template"]["metadata"]["labelz"] = {{"a", "b"}};
  obj["metadata"]["labelz"] = {{"a", "b"}};
  obj["extra"] = 1;
  return {"extra",
          "metadata.labelz",
          "spec.foo",
          "spec.pytorchReplicaSpecs.Master.template.metadata.labelz",
          "spec.pytorchReplicaSpecs.Master.template.spec.containers[0].imagePullPolicyy",
          "spec.pytorchReplicaSpecs.Master.template.spec.containers[0].resources.limitz",
          "spec.pytorchReplicaSpecs.Master.template.spec.volumes[1].emptyDir.size",
          "spec.runPolicy.cleanupPolicy"};
}

std::vector<std::string> sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace

TEST_CASE("Strict: every unknown field is a FieldValueUnknown cause with its path", "[schema][unknown]") {
  auto obj = yaml(kPyTorchJob);
  auto expected = add_unknown_fields(obj);
  auto result = real_schemas().validate(obj, Mode::Strict);
  CHECK_FALSE(result.ok());
  CHECK(sorted(result.unknown_fields) == expected);
  REQUIRE(result.causes.size() == expected.size());
  for (const auto& c : result.causes) {
    CHECK(c.reason == "FieldValueUnknown");
    CHECK(c.message == "unknown field \"" + c.field + "\"");
  }
  CHECK(result.has_strict_errors());
  CHECK(result.schema_causes().empty());
  auto message = result.strict_error_message();
  CHECK(message.rfind("strict decoding error: unknown field \"", 0) == 0);
  CHECK(message.find(", unknown field \"spec.foo\"") != std::string::npos);
}

TEST_CASE("Strict: a single unknown field reads like the API server's answer", "[schema][unknown]") {
  auto obj = yaml(kPyTorchJob);
  obj["spec"]["foo"] = 1;
  auto result = real_schemas().validate(obj, Mode::Strict);
  CHECK(result.strict_error_message() == "strict decoding error: unknown field \"spec.foo\"");
}

TEST_CASE("Warn and Ignore accept unknown fields, Warn words the warnings", "[schema][unknown]") {
  auto obj = yaml(kPyTorchJob);
  auto expected = add_unknown_fields(obj);
  auto warn = real_schemas().validate(obj, Mode::Warn);
  CHECK(warn.ok());
  CHECK(sorted(warn.unknown_fields) == expected);
  auto warnings = warn.warnings();
  CHECK(std::find(warnings.begin(), warnings.end(), "unknown field \"spec.foo\"") != warnings.end());
  auto ignore = real_schemas().validate(obj, Mode::Ignore);
  CHECK(ignore.ok());
  CHECK_FALSE(ignore.has_strict_errors());
}

TEST_CASE("unknown fields come before schema errors in Strict mode", "[schema][unknown]") {
  auto obj = yaml(kPyTorchJob);
  obj["spec"]["pytorchReplicaSpecs"]["Worker"]["replicas"] = "two";
  obj["spec"]["foo"] = 1;
  auto result = real_schemas().validate(obj, Mode::Strict);
  REQUIRE(result.causes.size() == 2);
  CHECK(result.causes[0].reason == "FieldValueUnknown");
  CHECK(result.causes[1].reason == "FieldValueTypeInvalid");
  CHECK(result.schema_causes().size() == 1);
}

TEST_CASE("prune removes exactly the unknown fields", "[schema][unknown][prune]") {
  const auto original = yaml(kPyTorchJob);
  auto obj = original;
  add_unknown_fields(obj);
  auto pruned = real_schemas().prune(obj);
  CHECK(pruned == original);
  CHECK(real_schemas().validate(pruned, Mode::Strict).ok());
}

TEST_CASE("prune on core kinds drops unknown fields of built-in types", "[schema][unknown][prune]") {
  const auto original = yaml(kDeployment);
  auto obj = original;
  obj["spec"]["template"]["spec"]["containers"][0]["imagee"] = "x";
  obj["spec"]["strategy"]["rollingUpdate"]["maxSurgee"] = 1;
  obj["status"] = {{"replicas", 1}, {"bogus", true}};
  auto result = real_schemas().validate(obj, Mode::Strict);
  CHECK(sorted(result.unknown_fields) == std::vector<std::string>{"spec.strategy.rollingUpdate.maxSurgee",
                                                                  "spec.template.spec.containers[0].imagee",
                                                                  "status.bogus"});
  auto pruned = real_schemas().prune(obj);
  auto expected = original;
  expected["status"] = {{"replicas", 1}};
  CHECK(pruned == expected);
}
