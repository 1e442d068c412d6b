// metadata: ObjectMeta types, name rules and label values, whatever the CRD declares.
#include <catch2/catch.hpp>

#include "fixtures.h"
#include "manifests.h"

using namespace trainctl::schema;
using namespace trainctl::schema::test;

TEST_CASE("metadata needs a name or a generateName", "[schema][metadata]") {
  auto obj = yaml(kPyTorchJob);
  obj["metadata"].erase("name");
  auto result = real_schemas().validate(obj);
  REQUIRE(result.causes.size() == 1);
  CHECK(result.causes[0].field == "metadata.name");
  CHECK(result.causes[0].reason == "FieldValueRequired");
  CHECK(result.causes[0].message == "Required value: name or generateName is required");
  obj["metadata"]["generateName"] = "mnist-";
  CHECK(real_schemas().validate(obj).ok());
}

TEST_CASE("names must be DNS subdomains, Service names DNS-1035 labels", "[schema][metadata]") {
  auto obj = yaml(kPyTorchJob);
  obj["metadata"]["name"] = "Mnist_DDP";
  auto result = real_schemas().validate(obj);
  REQUIRE(result.causes.size() == 1);
  CHECK(result.causes[0].field == "metadata.name");
  CHECK(result.causes[0].reason == "FieldValueInvalid");
  CHECK(result.causes[0].message.rfind(
            "Invalid value: \"Mnist_DDP\": a lowercase RFC 1123 subdomain must consist of", 0) == 0);
  obj["metadata"]["name"] = "mnist.v2";  // dots are fine in a subdomain
  CHECK(real_schemas().validate(obj).ok());

  auto svc = yaml(kNodePortService);
  svc["metadata"]["name"] = "tb.v2";  // not a DNS-1035 label
  auto sres = real_schemas().validate(svc);
  REQUIRE(cause_at(sres, "metadata.name") != nullptr);
  CHECK(cause_at(sres, "metadata.name")->message.find("a DNS-1035 label must consist of") !=
        std::string::npos);
  svc["metadata"]["name"] = "1tb";  // must start with a letter
  CHECK_FALSE(real_schemas().validate(svc).ok());
}

TEST_CASE("labels and annotations are maps of strings", "[schema][metadata]") {
  auto obj = yaml(kPyTorchJob);
  obj["metadata"]["labels"]["replicas"] = 2;
  obj["metadata"]["annotations"]["enabled"] = true;
  auto result = real_schemas().validate(obj);
  INFO(result.to_string());
  CHECK(result.causes.size() == 2);
  REQUIRE(cause_at(result, "metadata.labels.replicas") != nullptr);
  CHECK(cause_at(result, "metadata.labels.replicas")->message ==
        "Invalid value: \"integer\": metadata.labels.replicas in body must be of type string: "
        "\"integer\"");
  CHECK(cause_at(result, "metadata.annotations.enabled") != nullptr);

  auto bad_value = yaml(kPyTorchJob);
  bad_value["metadata"]["labels"]["team"] = "a b";
  auto bres = real_schemas().validate(bad_value);
  REQUIRE(cause_at(bres, "metadata.labels") != nullptr);
  CHECK(cause_at(bres, "metadata.labels")->message.rfind("Invalid value: \"a b\": a valid label", 0) == 0);
}

TEST_CASE("metadata keeps ObjectMeta fields the CRD does not spell out", "[schema][metadata]") {
  auto obj = yaml(kPyTorchJob);
  obj["metadata"]["uid"] = "0d1c7a1e-5b1f-4d6e-9a53-4c1f5f0e7d11";
  obj["metadata"]["resourceVersion"] = "42";
  obj["metadata"]["generation"] = 1;
  obj["metadata"]["finalizers"] = {"example.com/cleanup"};
  obj["metadata"]["ownerReferences"] = {
      {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"name", "owner"}, {"uid", "u-1"}, {"controller", true}}};
  CHECK(real_schemas().validate(obj, Mode::Strict).ok());
  CHECK(real_schemas().prune(obj) == obj);
  obj["metadata"]["ownerReferences"][0].erase("uid");
  CHECK(cause_at(real_schemas().validate(obj), "metadata.ownerReferences[0].uid") != nullptr);
}
