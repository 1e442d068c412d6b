// fieldValidation on every kind, built-in ones included: what kube-apiserver answers for
// unknown fields and repeated keys under Strict, Warn (also when the parameter is absent) and
// Ignore, and for a value it does not know (k8s.io/apiserver v0.33.0 pkg/endpoints/handlers
// create.go, update.go, patch.go; sigs.k8s.io/json strict errors). kubesim knows the fields of
// built-in kinds from the real OpenAPI v3 documents.
#include <catch2/catch.hpp>

#include "kubesim/builtin_types.h"
#include "kubesim/server_startup.h"
#include "rest_fixture.h"
#include "support/ci.h"

using namespace kubesim;
using namespace kubesim::testing;

namespace {

// A pod body with a repeated metadata.name and two unknown fields, in that order.
const std::string kHostilePod =
    R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"first","name":"p"},)"
    R"("spec":{"foo":1,"containers":[{"name":"c","image":"busybox","bogus":true}]}})";
const std::string kStrictErrors =
    R"(strict decoding error: duplicate field "metadata.name", unknown field "spec.foo", )"
    R"(unknown field "spec.containers[0].bogus")";

std::vector<std::string> warnings(const httplib::Result& r) {
  std::vector<std::string> out;
  auto range = r->headers.equal_range("Warning");
  for (auto it = range.first; it != range.second; ++it) out.push_back(it->second);
  return out;
}

struct StrictServer {
  std::optional<std::string> dir = trainctl::testing::schema_dir_for_case();
  std::unique_ptr<SimServer> sim;
  StrictServer() {
    if (!dir) return;
    sim = std::make_unique<SimServer>(make_schema_validator(*dir));
    register_crds_from_dir(sim->store, *dir + "/crds");  // before the first request
  }
};

}  // namespace

TEST_CASE("built-in kinds: Strict refuses unknown fields and repeated keys with the decoder's 400",
          "[kubesim][strict]") {
  StrictServer s;
  if (!s.sim) return;
  auto c = s.sim->client();
  auto r = c->Post("/api/v1/namespaces/default/pods?fieldValidation=Strict", kHostilePod, kJson);
  REQUIRE(r);
  CHECK(r->status == 400);
  json st = body_json(r);
  CHECK(st["reason"] == "BadRequest");
  CHECK(st["message"] == "Pod in version \"v1\" cannot be handled as a Pod: " + kStrictErrors);
  CHECK(c->Get("/api/v1/namespaces/default/pods/p")->status == 404);

  // Every built-in kind kubesim serves with a schema: one unknown field each.
  const std::vector<std::pair<std::string, json>> objects = {
      {"/api/v1/namespaces/default/services", json::parse(R"({"apiVersion":"v1","kind":"Service",
          "metadata":{"name":"s"},"spec":{"ports":[{"port":80}],"portz":1}})")},
      {"/api/v1/namespaces/default/configmaps", json::parse(R"({"apiVersion":"v1","kind":"ConfigMap",
          "metadata":{"name":"m"},"datta":{"a":"b"}})")},
      {"/apis/batch/v1/namespaces/default/jobs", json::parse(R"({"apiVersion":"batch/v1","kind":"Job",
          "metadata":{"name":"j"},"spec":{"backofLimit":1,"template":{"spec":{"restartPolicy":"Never",
          "containers":[{"name":"c","image":"busybox"}]}}}})")},
      {"/apis/apps/v1/namespaces/default/deployments", json::parse(R"({"apiVersion":"apps/v1","kind":"Deployment",
          "metadata":{"name":"d","lables":{"a":"b"}},"spec":{"selector":{"matchLabels":{"a":"b"}},
          "template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"busybox"}]}}}})")}};
  const std::vector<std::string> unknown = {"spec.portz", "datta", "spec.backofLimit", "metadata.lables"};
  for (size_t i = 0; i < objects.size(); ++i) {
    const auto& [path, obj] = objects[i];
    INFO(path);
    r = c->Post(path + "?fieldValidation=Strict", obj.dump(), kJson);
    REQUIRE(r);
    CHECK(r->status == 400);
    const std::string kind = obj["kind"];
    const std::string version = obj["apiVersion"].get<std::string>().substr(obj["apiVersion"].get<std::string>().find('/') + 1);
    CHECK(body_json(r)["message"] == kind + " in version \"" + version + "\" cannot be handled as a " + kind +
                                         ": strict decoding error: unknown field \"" + unknown[i] + "\"");
    // Without the parameter (Warn): stored without the field, with a warning.
    r = c->Post(path, obj.dump(), kJson);
    REQUIRE(r);
    CHECK(r->status == 201);
    CHECK(warnings(r) == std::vector<std::string>{"299 - \"unknown field \\\"" + unknown[i] + "\\\"\""});
    CHECK(body_json(r).dump().find(unknown[i].substr(unknown[i].rfind('.') + 1)) == std::string::npos);
  }
}

TEST_CASE("built-in kinds: Warn warns and stores without the unknown fields, Ignore says nothing",
          "[kubesim][strict]") {
  StrictServer s;
  if (!s.sim) return;
  auto c = s.sim->client();
  for (const std::string mode : {"Warn", ""}) {
    INFO("fieldValidation=" << mode);
    c->Delete("/api/v1/namespaces/default/pods/p?gracePeriodSeconds=0");
    auto r = c->Post("/api/v1/namespaces/default/pods" + (mode.empty() ? "" : "?fieldValidation=" + mode), kHostilePod,
                     kJson);
    REQUIRE(r);
    CHECK(r->status == 201);
    CHECK(warnings(r) == std::vector<std::string>{R"(299 - "duplicate field \"metadata.name\"")",
                                                  R"(299 - "unknown field \"spec.foo\"")",
                                                  R"(299 - "unknown field \"spec.containers[0].bogus\"")"});
    const json pod = body_json(c->Get("/api/v1/namespaces/default/pods/p"));
    CHECK_FALSE(pod["spec"].contains("foo"));
    CHECK_FALSE(pod["spec"]["containers"][0].contains("bogus"));
  }
  c->Delete("/api/v1/namespaces/default/pods/p?gracePeriodSeconds=0");
  auto r = c->Post("/api/v1/namespaces/default/pods?fieldValidation=Ignore", kHostilePod, kJson);
  REQUIRE(r);
  CHECK(r->status == 201);
  CHECK(warnings(r).empty());
  CHECK_FALSE(body_json(r)["spec"].contains("foo"));
}

TEST_CASE("an unsupported fieldValidation is 422 on the request's options", "[kubesim][strict]") {
  SimServer sim;  // checked before the body is decoded: no schema needed
  auto c = sim.client();
  const std::string pod = R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"b"}]}})";
  auto check = [](const httplib::Result& r, const std::string& options) {
    REQUIRE(r);
    CHECK(r->status == 422);
    json st = body_json(r);
    CHECK(st["reason"] == "Invalid");
    CHECK(st["message"] == options + ".meta.k8s.io \"\" is invalid: fieldValidation: Unsupported value: \"Bogus\": "
                                     "supported values: \"\", \"Ignore\", \"Strict\", \"Warn\"");
    CHECK(st["details"]["kind"] == options);
    CHECK(st["details"]["group"] == "meta.k8s.io");
    CHECK(st["details"]["causes"][0]["field"] == "fieldValidation");
    CHECK(st["details"]["causes"][0]["reason"] == "FieldValueNotSupported");
  };
  check(c->Post("/api/v1/namespaces/default/pods?fieldValidation=Bogus", pod, kJson), "CreateOptions");
  REQUIRE(c->Post("/api/v1/namespaces/default/pods", pod, kJson)->status == 201);
  check(c->Put("/api/v1/namespaces/default/pods/p?fieldValidation=Bogus", pod, kJson), "UpdateOptions");
  check(c->Patch("/api/v1/namespaces/default/pods/p?fieldValidation=Bogus", "{}", "application/merge-patch+json"),
        "PatchOptions");
}

TEST_CASE("updates and patches: strict errors of what the request sent", "[kubesim][strict]") {
  StrictServer s;
  if (!s.sim) return;
  auto c = s.sim->client();
  const json cm = {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", "m"}}}, {"data", {{"a", "b"}}}};
  REQUIRE(c->Post("/api/v1/namespaces/default/configmaps", cm.dump(), kJson)->status == 201);
  json bad = cm;
  bad["extra"] = 1;
  auto r = c->Put("/api/v1/namespaces/default/configmaps/m?fieldValidation=Strict", bad.dump(), kJson);
  REQUIRE(r);
  CHECK(r->status == 400);
  CHECK(body_json(r)["message"] ==
        "ConfigMap in version \"v1\" cannot be handled as a ConfigMap: strict decoding error: unknown field \"extra\"");
  // A patch: patch.go answers 422 with the patched object on the field "patch".
  r = c->Patch("/api/v1/namespaces/default/configmaps/m?fieldValidation=Strict", R"({"data":{"a":"1","a":"2"},"extra":1})",
               "application/merge-patch+json");
  REQUIRE(r);
  CHECK(r->status == 422);
  json st = body_json(r);
  CHECK(st["reason"] == "Invalid");
  CHECK(st["details"]["causes"][0]["field"] == "patch");
  const std::string msg = st["details"]["causes"][0]["message"];
  CHECK(msg.rfind("Invalid value: \"{", 0) == 0);
  CHECK(msg.find(R"(: strict decoding error: duplicate field "data.a", unknown field "extra")") != std::string::npos);
  r = c->Patch("/api/v1/namespaces/default/configmaps/m", R"({"data":{"a":"1","a":"2"},"extra":1})",
               "application/merge-patch+json");
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(warnings(r).size() == 2);
  CHECK(body_json(r)["data"]["a"] == "2");
  CHECK_FALSE(body_json(r).contains("extra"));
}

TEST_CASE("custom resources: a repeated key is a strict error too", "[kubesim][strict]") {
  StrictServer s;
  if (!s.sim) return;
  auto c = s.sim->client();
  const std::string job = R"({"apiVersion":"kubeflow.org/v1","kind":"PyTorchJob","metadata":{"name":"j"},)"
                          R"("spec":{"pytorchReplicaSpecs":{"Master":{"replicas":1,"replicas":1,"template":{"spec":)"
                          R"({"containers":[{"name":"pytorch","image":"busybox"}]}}}}}})";
  auto r = c->Post("/apis/kubeflow.org/v1/namespaces/default/pytorchjobs?fieldValidation=Strict", job, kJson);
  REQUIRE(r);
  CHECK(r->status == 400);
  CHECK(body_json(r)["message"] ==
        "PyTorchJob in version \"v1\" cannot be handled as a PyTorchJob: strict decoding error: duplicate field "
        "\"spec.pytorchReplicaSpecs.Master.replicas\"");
}
