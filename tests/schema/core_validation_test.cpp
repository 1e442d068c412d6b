// Built-in kinds validated against the Kubernetes OpenAPI v3 documents.
#include <catch2/catch.hpp>

#include "fixtures.h"
#include "manifests.h"

using namespace trainctl::schema;
using namespace trainctl::schema::test;

TEST_CASE("core kinds are found by x-kubernetes-group-version-kind", "[schema][core]") {
  const auto& set = real_schemas();
  CHECK(set.openapi_version() == "v1.35");
  for (const char* kind :
       {"Pod", "Service", "ConfigMap", "Secret", "PersistentVolumeClaim", "Namespace", "Node", "Event"}) {
    INFO(kind);
    const Schema* s = set.find("v1", kind);
    REQUIRE(s != nullptr);
    CHECK(s->kind() == kind);
    CHECK_FALSE(s->is_crd());
  }
  REQUIRE(set.find("apps/v1", "Deployment") != nullptr);
  REQUIRE(set.find("batch/v1", "Job") != nullptr);
  CHECK(set.find("v1", "Deployment") == nullptr);
  CHECK(set.find("apps/v1", "Pod") == nullptr);
  CHECK(set.find("v2", "Pod") == nullptr);
  CHECK(set.find("batch/v1", "PodSpec") == nullptr);
  // The same pointer on the second lookup (schemas are cached).
  CHECK(set.find("v1", "Pod") == set.find("v1", "Pod"));
}

TEST_CASE("Deployment, NodePort Service and Indexed Job pass strict validation", "[schema][core]") {
  for (const char* text : {kDeployment, kNodePortService, kIndexedJob}) {
    auto obj = yaml(text);
    auto result = real_schemas().validate(obj, Mode::Strict);
    INFO(obj["kind"].get<std::string>() << "\n" << result.to_string());
    CHECK(result.schema_found);
    CHECK(result.ok());
    CHECK(real_schemas().prune(obj) == obj);
  }
}

TEST_CASE("core type errors, required fields and unknown fields", "[schema][core]") {
  auto deploy = yaml(kDeployment);
  deploy["spec"]["replicas"] = "two";
  deploy["spec"].erase("selector");
  deploy["spec"]["template"]["spec"]["containers"][0].erase("name");
  deploy["spec"]["template"]["spec"]["containers"][0]["ports"][0]["containerPort"] = "6006";
  auto result = real_schemas().validate(deploy, Mode::Strict);
  INFO(result.to_string());
  CHECK(result.causes.size() == 4);
  REQUIRE(cause_at(result, "spec.replicas") != nullptr);
  CHECK(cause_at(result, "spec.replicas")->message ==
        "Invalid value: \"string\": spec.replicas in body must be of type integer: \"string\"");
  REQUIRE(cause_at(result, "spec.selector") != nullptr);
  CHECK(cause_at(result, "spec.selector")->reason == "FieldValueRequired");
  REQUIRE(cause_at(result, "spec.template.spec.containers[0].name") != nullptr);
  CHECK(cause_at(result, "spec.template.spec.containers[0].name")->reason == "FieldValueRequired");
  CHECK(cause_at(result, "spec.template.spec.containers[0].ports[0].containerPort") != nullptr);

  auto job = yaml(kIndexedJob);
  job["spec"]["completionmode"] = "Indexed";
  auto jres = real_schemas().validate(job, Mode::Strict);
  CHECK(jres.strict_error_message() == "strict decoding error: unknown field \"spec.completionmode\"");
}

TEST_CASE("IntOrString and Quantity of the built-in types", "[schema][core]") {
  auto svc = yaml(kNodePortService);
  svc["spec"]["ports"][0]["targetPort"] = "http";
  svc["spec"]["ports"][1]["targetPort"] = 9090;
  CHECK(real_schemas().validate(svc).ok());
  svc["spec"]["ports"][1]["targetPort"] = 1.5;
  auto bad = real_schemas().validate(svc);
  CHECK(cause_at(bad, "spec.ports[1].targetPort") != nullptr);

  auto deploy = yaml(kDeployment);
  auto& limits = deploy["spec"]["template"]["spec"]["containers"][0]["resources"]["limits"];
  limits["cpu"] = 2;
  limits["memory"] = "2Gi";
  CHECK(real_schemas().validate(deploy).ok());
  limits["memory"] = nlohmann::json::array({"2Gi"});
  CHECK(cause_at(real_schemas().validate(deploy),
                 "spec.template.spec.containers[0].resources.limits.memory") != nullptr);
}

TEST_CASE("duplicate keys of a list-type map are reported", "[schema][core]") {
  auto deploy = yaml(kDeployment);
  auto& containers = deploy["spec"]["template"]["spec"]["containers"];
  containers.push_back(containers[0]);
  auto result = real_schemas().validate(deploy);
  REQUIRE(cause_at(result, "spec.template.spec.containers[1]") != nullptr);
  CHECK(cause_at(result, "spec.template.spec.containers[1]")->reason == "FieldValueDuplicate");
}

TEST_CASE("an object of an unknown kind has no schema", "[schema][core]") {
  auto result = real_schemas().validate(yaml("{apiVersion: example.com/v1, kind: Gadget}"));
  CHECK_FALSE(result.schema_found);
  CHECK_FALSE(result.ok());
  auto obj = yaml("{apiVersion: example.com/v1, kind: Gadget, spec: {x: 1}}");
  CHECK(real_schemas().prune(obj) == obj);
}
