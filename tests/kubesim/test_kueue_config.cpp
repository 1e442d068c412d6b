// kubesim's Kueue follows its configuration over HTTP: the job webhook suspends only the kinds
// whose integration is enabled (v0.19.2 ships kubeflow.org/pytorchjob and tfjob disabled,
// config/components/manager/controller_manager_config.yaml), and the visibility API serves
// and lists in discovery only the versions registered (both in v0.19.2, v1beta2 preferred:
// config/components/visibility/apiservice_v1beta{1,2}.yaml, pkg/visibility/server.go).
#include <catch2/catch.hpp>

#include "kubesim/controllers/simulation.h"
#include "kubesim/kueue_model.h"
#include "rest_fixture.h"

using kubesim::json;
using kubesim::KueueConfig;
using kubesim::ServerOptions;
using kubesim::testing::body_json;
using kubesim::testing::kJson;
using kubesim::testing::SimServer;

namespace {

void register_kueue(kubesim::Store& store) {
  kubesim::Simulation::ensure_types(store);
  for (auto [kind, plural, namespaced] : {std::tuple{"ClusterQueue", "clusterqueues", false},
                                          std::tuple{"LocalQueue", "localqueues", true},
                                          std::tuple{"Workload", "workloads", true}}) {
    kubesim::ResourceType rt{"kueue.x-k8s.io", "v1beta2", kind, plural, "", namespaced, {}, {}, true};
    store.register_type(rt);
  }
  store.create(*store.find("kueue.x-k8s.io", "v1beta2", "clusterqueues"), {{"metadata", {{"name", "cq"}}}});
}

ServerOptions with(KueueConfig kueue) {
  ServerOptions o;
  o.kueue = std::move(kueue);
  return o;
}

std::string pytorchjob(const std::string& name) {
  return json{{"apiVersion", "kubeflow.org/v1"},
              {"kind", "PyTorchJob"},
              {"metadata", {{"name", name}, {"labels", {{kubesim::kKueueQueueLabel, "lq"}}}}},
              {"spec", {{"pytorchReplicaSpecs", {{"Master", {{"replicas", 1}, {"template", json::object()}}}}}}}}
      .dump();
}

std::vector<std::string> versions_of(const json& group) {
  std::vector<std::string> out;
  for (const auto& v : group["versions"]) out.push_back(v["version"]);
  return out;
}

}  // namespace

TEST_CASE("kubesim kueue: the webhook suspends a PyTorchJob only where its integration is enabled",
          "[kubesim][kueue]") {
  SECTION("v0.19.2's configuration: created as sent, not suspended") {
    SimServer sim;
    register_kueue(sim.store);
    auto r = sim.client()->Post("/apis/kubeflow.org/v1/namespaces/default/pytorchjobs", pytorchjob("a"), kJson);
    REQUIRE(r->status == 201);
    CHECK_FALSE(body_json(r)["spec"].value("runPolicy", json::object()).value("suspend", false));
  }
  SECTION("kubeflow.org/pytorchjob enabled: suspended in the create answer") {
    KueueConfig k;
    k.frameworks.insert("kubeflow.org/pytorchjob");
    SimServer sim(nullptr, with(k));
    register_kueue(sim.store);
    auto r = sim.client()->Post("/apis/kubeflow.org/v1/namespaces/default/pytorchjobs", pytorchjob("a"), kJson);
    REQUIRE(r->status == 201);
    CHECK(body_json(r)["spec"]["runPolicy"]["suspend"] == true);
  }
}

TEST_CASE("kubesim kueue: the visibility API serves the registered versions, preferred first",
          "[kubesim][kueue]") {
  struct Case {
    std::set<std::string> served;
    std::vector<std::string> listed;
  };
  for (const auto& c : {Case{{"v1beta1", "v1beta2"}, {"v1beta2", "v1beta1"}}, Case{{"v1beta2"}, {"v1beta2"}},
                        Case{{"v1beta1"}, {"v1beta1"}}}) {
    INFO(c.listed[0] << " of " << c.served.size());
    KueueConfig k;
    k.visibility_versions = c.served;
    SimServer sim(nullptr, with(k));
    register_kueue(sim.store);
    auto cl = sim.client();
    const json group = body_json(cl->Get("/apis/visibility.kueue.x-k8s.io"));
    CHECK(versions_of(group) == c.listed);
    CHECK(group["preferredVersion"]["version"] == c.listed[0]);
    bool listed = false;
    const json all = body_json(cl->Get("/apis"));
    for (const auto& g : all["groups"])
      if (g["name"] == "visibility.kueue.x-k8s.io") {
        listed = true;
        CHECK(versions_of(g) == c.listed);
      }
    CHECK(listed);
    for (const std::string v : {"v1beta1", "v1beta2"}) {
      INFO(v);
      const int want = c.served.count(v) ? 200 : 404;
      CHECK(cl->Get("/apis/visibility.kueue.x-k8s.io/" + v)->status == want);
      CHECK(cl->Get("/apis/visibility.kueue.x-k8s.io/" + v + "/clusterqueues/cq/pendingworkloads")->status == want);
    }
  }
}
