// A CRD served in several versions, as Kueue's (v1beta1 and v1beta2, storage v1beta2):
// discovery prefers the version of highest Kubernetes priority (apimachinery
// pkg/version/helpers.go CompareKubeAwareVersionStrings; apiextensions-apiserver
// customresource_discovery_controller.go), and every version reads and writes the same
// objects (conversion strategy None: only apiVersion changes).
#include <catch2/catch.hpp>

#include "kubesim/builtin_types.h"
#include "rest_fixture.h"

using kubesim::json;
using kubesim::testing::body_json;
using kubesim::testing::kJson;
using kubesim::testing::SimServer;

namespace {

// The shape of kueue.x-k8s.io_localqueues.yaml (versions in the file's order).
json localqueue_crd() {
  json schema = {{"openAPIV3Schema", {{"type", "object"}, {"x-kubernetes-preserve-unknown-fields", true}}}};
  return {{"apiVersion", "apiextensions.k8s.io/v1"},
          {"kind", "CustomResourceDefinition"},
          {"metadata", {{"name", "localqueues.kueue.x-k8s.io"}}},
          {"spec",
           {{"group", "kueue.x-k8s.io"},
            {"names", {{"kind", "LocalQueue"}, {"plural", "localqueues"}, {"singular", "localqueue"}}},
            {"scope", "Namespaced"},
            {"versions",
             {{{"name", "v1beta1"}, {"served", true}, {"storage", false}, {"schema", schema}},
              {{"name", "v1beta2"}, {"served", true}, {"storage", true}, {"schema", schema}},
              {{"name", "v1alpha9"}, {"served", false}, {"storage", false}, {"schema", schema}}}}}}};
}

std::vector<std::string> versions_of(const json& group) {
  std::vector<std::string> out;
  for (const auto& v : group["versions"]) out.push_back(v["version"]);
  return out;
}

}  // namespace

TEST_CASE("discovery prefers the version of highest Kubernetes priority", "[kubesim][discovery]") {
  SimServer sim;
  for (const auto& rt : kubesim::types_from_crd(localqueue_crd())) sim.store.register_type(rt);
  // Versions of kube-like priority: GA, then beta, then alpha; higher numbers first.
  for (const char* v : {"v1alpha1", "v2", "v1beta1", "v10", "v1", "v2beta3"}) {
    kubesim::ResourceType rt{"example.com", v, "Thing", "things", "thing", true, {}, {}, false};
    sim.store.register_type(rt);
  }
  auto c = sim.client();
  json group = body_json(c->Get("/apis/kueue.x-k8s.io"));
  CHECK(group["preferredVersion"]["version"] == "v1beta2");
  CHECK(versions_of(group) == std::vector<std::string>{"v1beta2", "v1beta1"});  // v1alpha9 is not served
  json things = body_json(c->Get("/apis/example.com"));
  CHECK(versions_of(things) == std::vector<std::string>{"v10", "v2", "v1", "v2beta3", "v1beta1", "v1alpha1"});
  CHECK(things["preferredVersion"]["groupVersion"] == "example.com/v10");
  bool found = false;
  const json all = body_json(c->Get("/apis"));
  for (const auto& g : all["groups"])
    if (g["name"] == "kueue.x-k8s.io") {
      found = true;
      CHECK(g["preferredVersion"]["version"] == "v1beta2");
    }
  CHECK(found);
  CHECK(c->Get("/apis/kueue.x-k8s.io/v1alpha9")->status == 404);
}

TEST_CASE("every served version of a CRD reads and writes the same objects", "[kubesim][versions]") {
  SimServer sim;
  for (const auto& rt : kubesim::types_from_crd(localqueue_crd())) sim.store.register_type(rt);
  auto c = sim.client();
  const std::string beta1 = "/apis/kueue.x-k8s.io/v1beta1/namespaces/default/localqueues";
  const std::string beta2 = "/apis/kueue.x-k8s.io/v1beta2/namespaces/default/localqueues";
  json q = {{"apiVersion", "kueue.x-k8s.io/v1beta1"},
            {"kind", "LocalQueue"},
            {"metadata", {{"name", "team-a"}}},
            {"spec", {{"clusterQueue", "cq"}}}};
  auto r = c->Post(beta1, q.dump(), kJson);
  REQUIRE(r->status == 201);
  CHECK(body_json(r)["apiVersion"] == "kueue.x-k8s.io/v1beta1");
  json got = body_json(c->Get(beta2 + "/team-a"));
  CHECK(got["apiVersion"] == "kueue.x-k8s.io/v1beta2");
  CHECK(got["spec"]["clusterQueue"] == "cq");
  json list1 = body_json(c->Get(beta1));
  REQUIRE(list1["items"].size() == 1);
  CHECK(list1["items"][0]["apiVersion"] == "kueue.x-k8s.io/v1beta1");
  CHECK(list1["apiVersion"] == "kueue.x-k8s.io/v1beta1");
  // A watch in one version sees the writes made through the other, in its own version.
  const std::string rv = got["metadata"]["resourceVersion"];
  std::thread writer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    auto w = sim.client();
    w->Delete(beta1 + "/team-a");
  });
  r = c->Get(beta2 + "?watch=true&timeoutSeconds=1&resourceVersion=" + rv);
  writer.join();
  REQUIRE(r);
  json ev = json::parse(r->body.substr(0, r->body.find('\n')));
  CHECK(ev["type"] == "DELETED");
  CHECK(ev["object"]["apiVersion"] == "kueue.x-k8s.io/v1beta2");
  CHECK(c->Get(beta2 + "/team-a")->status == 404);
  CHECK(c->Get(beta1 + "/team-a")->status == 404);
}
