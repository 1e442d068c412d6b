// x-kubernetes-preserve-unknown-fields, embedded resources and nullable, with a small CRD
// written here (none of the real CRDs uses them).
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "fixtures.h"
#include "support/paths.h"

using namespace trainctl::schema;
using namespace trainctl::schema::test;

namespace {

constexpr const char* kWidgetCrd = R"(---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, listKind: WidgetList, plural: widgets, singular: widget,
          shortNames: [wd], categories: [all]}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [size]
            properties:
              size: {type: integer, format: int32, minimum: 1}
              note: {type: string, nullable: true}
              config:
                type: object
                x-kubernetes-preserve-unknown-fields: true
                properties:
                  level: {type: integer}
              payload:
                type: object
                x-kubernetes-embedded-resource: true
                x-kubernetes-preserve-unknown-fields: true
              tags:
                type: array
                maxItems: 2
                items: {type: string}
              choice:
                oneOf:
                - {type: string, enum: [a]}
                - {type: integer}
          status:
            type: object
            x-kubernetes-preserve-unknown-fields: true
  - name: v1beta1
    served: false
    storage: false
)";

const SchemaSet& widget_schemas() {
  static const SchemaSet set = [] {
    namespace fs = std::filesystem;
    fs::path dir = trainctl::testing::make_temp_dir("schema-widgets");
    fs::create_directories(dir / "crds");
    std::ofstream(dir / "crds" / "widgets.yaml") << kWidgetCrd;
    return SchemaSet::load_dir(dir.string(), false);
  }();
  return set;
}

nlohmann::json widget() {
  return yaml(R"(
apiVersion: example.com/v1
kind: Widget
metadata: {name: w1}
spec:
  size: 3
  note: null
  config: {level: 2, anything: {goes: [1, 2]}}
  payload:
    apiVersion: v1
    kind: ConfigMap
    metadata: {name: inner, bogus: 1}
    data: {k: v}
status: {whatever: true}
)");
}

}  // namespace

TEST_CASE("a small CRD's info, versions not served have no schema", "[schema][preserve]") {
  REQUIRE(widget_schemas().crds().size() == 1);
  const auto& info = widget_schemas().crds()[0];
  CHECK(info.short_names == std::vector<std::string>{"wd"});
  CHECK(info.categories == std::vector<std::string>{"all"});
  REQUIRE(info.versions.size() == 2);
  CHECK_FALSE(info.versions[1].served);
  CHECK(widget_schemas().find("example.com/v1", "Widget") != nullptr);
  CHECK(widget_schemas().find("example.com/v1beta1", "Widget") == nullptr);
  CHECK(widget_schemas().find("v1", "Pod") == nullptr);  // no OpenAPI documents loaded
}

TEST_CASE("preserve-unknown-fields keeps undeclared fields but checks declared ones", "[schema][preserve]") {
  auto obj = widget();
  auto result = widget_schemas().validate(obj, Mode::Strict);
  INFO(result.to_string());
  // The only unknown field: metadata.bogus inside the embedded resource.
  CHECK(result.unknown_fields == std::vector<std::string>{"spec.payload.metadata.bogus"});
  auto pruned = widget_schemas().prune(obj);
  CHECK(pruned["spec"]["config"]["anything"] == obj["spec"]["config"]["anything"]);
  CHECK(pruned["status"]["whatever"] == true);
  CHECK(pruned["spec"]["payload"]["data"]["k"] == "v");
  CHECK(pruned["spec"]["payload"]["kind"] == "ConfigMap");
  CHECK_FALSE(pruned["spec"]["payload"]["metadata"].contains("bogus"));
  CHECK(pruned["spec"]["payload"]["metadata"]["name"] == "inner");
  CHECK(pruned["spec"].contains("note"));  // nullable: the null stays
  CHECK(pruned["spec"]["note"].is_null());

  obj["spec"]["config"]["level"] = "high";
  auto bad = widget_schemas().validate(obj);
  CHECK(cause_at(bad, "spec.config.level") != nullptr);
}

TEST_CASE("embedded resources need a string apiVersion and kind", "[schema][preserve]") {
  auto obj = widget();
  obj["spec"]["payload"]["kind"] = 5;
  auto result = widget_schemas().validate(obj, Mode::Ignore);
  REQUIRE(cause_at(result, "spec.payload.kind") != nullptr);
  CHECK(cause_at(result, "spec.payload.kind")->reason == "FieldValueTypeInvalid");
}

TEST_CASE("maxItems, minimum, oneOf and required of the small CRD", "[schema][preserve]") {
  auto obj = widget();
  obj["spec"]["tags"] = {"a", "b", "c"};
  obj["spec"]["size"] = 0;
  obj["spec"]["choice"] = "b";
  auto result = widget_schemas().validate(obj, Mode::Ignore);
  INFO(result.to_string());
  CHECK(result.causes.size() == 3);
  REQUIRE(cause_at(result, "spec.tags") != nullptr);
  CHECK(cause_at(result, "spec.tags")->message == "Too many: 3: must have at most 2 items");
  CHECK(cause_at(result, "spec.tags")->reason == "FieldValueTooMany");
  CHECK(cause_at(result, "spec.size") != nullptr);
  REQUIRE(cause_at(result, "spec.choice") != nullptr);
  CHECK(cause_at(result, "spec.choice")->message ==
        "Invalid value: \"b\": spec.choice in body must validate one and only one schema (oneOf)");
  obj["spec"]["tags"] = {"a"};
  obj["spec"]["size"] = 1;
  obj["spec"]["choice"] = 7;
  CHECK(widget_schemas().validate(obj, Mode::Ignore).ok());
  obj["spec"]["choice"] = "a";
  CHECK(widget_schemas().validate(obj, Mode::Ignore).ok());
  obj["spec"]["size"] = nullptr;  // not nullable: dropped, so missing
  auto missing = widget_schemas().validate(obj, Mode::Ignore);
  REQUIRE(cause_at(missing, "spec.size") != nullptr);
  CHECK(cause_at(missing, "spec.size")->reason == "FieldValueRequired");
}
