// ClientLookup: the requests behind live completion, against a fake API server.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "cmd/completion/complete_cluster.h"
#include "cmd/factory.h"
#include "support/fake_client.h"
#include "support/paths.h"

using nlohmann::json;
using trainctl::completion::ClientLookup;
using trainctl::completion::Scope;
using trainctl::testing::FakeClient;
using Strings = std::vector<std::string>;

namespace {

json named(const Strings& names) {
  json items = json::array();
  for (const auto& n : names) items.push_back({{"metadata", {{"name", n}, {"namespace", "team-a"}}}});
  return FakeClient::list(items);
}

// A Factory of the scope with the fake client, as complete.cpp makes one per scope.
std::unique_ptr<trainctl::Factory> factory_with(std::shared_ptr<FakeClient> client, const Scope& s,
                                                std::string default_ns) {
  trainctl::GlobalOptions g;
  g.kubeconfig = s.kubeconfig;
  g.namespace_ = s.namespace_.empty() ? default_ns : s.namespace_;
  auto f = std::make_unique<trainctl::Factory>(trainctl::IOStreams::test(false, 80), std::move(g));
  f->set_user_config({});
  if (client) f->set_client(std::move(client));
  return f;
}

struct Fixture {
  std::shared_ptr<FakeClient> client = std::make_shared<FakeClient>();
  int factories = 0;
  ClientLookup lookup{[this](const Scope& s) {
    ++factories;
    return factory_with(client, s, "team-a");
  }};
};

}  // namespace

TEST_CASE("job names come from every kind's collection in one round trip") {
  Fixture f;
  // The same collections `trainctl list` reads: Arena's CRDs and the operator-free Jobs.
  f.client->on_get("/apis/kubeflow.org/v1/namespaces/team-a/pytorchjobs?limit=500", named({"mnist"}));
  f.client->on_get("/apis/kubeflow.org/v2beta1/namespaces/team-a/mpijobs?limit=500", named({"hvd"}));
  f.client->on_not_found("/apis/batch.volcano.sh/v1alpha1/namespaces/team-a/jobs?limit=500");  // CRD missing
  f.client->on_get(
      "/apis/batch/v1/namespaces/team-a/"
      "jobs?labelSelector=app%3Dpytorchjob%2Ctrainctl.io%2Foperator%3Dnone&limit=500",
      named({"plain"}));
  f.client->on_get("/apis/kubeflow.org/v1/namespaces/team-a/tfjobs?limit=500", named({"tf"}));
  f.client->on_get("/apis/trainer.kubeflow.org/v1alpha1/namespaces/team-a/trainjobs?limit=500",
                   named({"llm"}));
  CHECK_THAT(f.lookup.jobs(Scope{}),
             Catch::Matchers::UnorderedEquals(Strings{"mnist", "hvd", "plain", "tf", "llm"}));
  CHECK(f.client->batches() == std::vector<size_t>{6});
  CHECK_NOTHROW(f.client->verify());
}

TEST_CASE("-T narrows the job lookup; -n replaces the default namespace") {
  Fixture f;
  f.client->on_get("/apis/kubeflow.org/v2beta1/namespaces/ns2/mpijobs?limit=500", named({"hvd"}));
  Scope s;
  s.type = "mj";
  s.namespace_ = "ns2";
  CHECK(f.lookup.jobs(s) == Strings{"hvd"});
  s.type = "xgboost";  // not a type: nothing, no request
  CHECK(f.lookup.jobs(s).empty());
  CHECK(f.client->requests().size() == 1);
}

TEST_CASE("instances are the pods of the job, by each kind's pod selector") {
  Fixture f;
  Scope s;
  s.type = "pytorch";
  f.client->on_get(
      "/api/v1/namespaces/team-a/pods?labelSelector=training.kubeflow.org%2Fjob-name%3Dmnist%2C"
      "training.kubeflow.org%2Foperator-name%3Dpytorchjob-controller&limit=500",
      named({"mnist-master-0", "mnist-worker-0"}));
  f.client->on_get(
      "/api/v1/namespaces/team-a/pods?labelSelector=job-name%3Dmnist&limit=500",
      named({}));
  CHECK(f.lookup.instances(s, "mnist") == Strings{"mnist-master-0", "mnist-worker-0"});
  CHECK_NOTHROW(f.client->verify());
}

TEST_CASE("namespaces, PVCs and nodes; errors give no names and no exception") {
  Fixture f;
  f.client->on_get("/api/v1/namespaces?limit=500", named({"default", "team-a"}));
  f.client->on_get("/api/v1/namespaces/team-a/persistentvolumeclaims?limit=500", named({"data"}));
  f.client->on("GET", "/api/v1/nodes?limit=500", 403,
               {{"kind", "Status"}, {"status", "Failure"}, {"reason", "Forbidden"}, {"code", 403}});
  CHECK(f.lookup.namespaces(Scope{}) == Strings{"default", "team-a"});
  CHECK(f.lookup.pvcs(Scope{}) == Strings{"data"});
  CHECK(f.lookup.nodes(Scope{}).empty());
  CHECK(f.factories == 1);  // one factory and client for every lookup
}

TEST_CASE("a client that cannot be built (no kubeconfig) gives no names") {
  const std::string dir = trainctl::testing::make_temp_dir("completion-no-kubeconfig");
  ClientLookup lookup([&](const Scope& s) {
    Scope missing = s;
    missing.kubeconfig = dir + "/missing";  // --kubeconfig naming no file: the client cannot be built
    return factory_with(nullptr, missing, "default");
  });
  CHECK(lookup.jobs(Scope{}).empty());
  CHECK(lookup.namespaces(Scope{}).empty());
  CHECK(lookup.contexts(Scope{}).empty());
}

TEST_CASE("contexts come from the kubeconfig without a cluster") {
  const std::string dir = trainctl::testing::make_temp_dir("completion-contexts");
  const std::string path = dir + "/kubeconfig";
  std::ofstream(path) << "apiVersion: v1\nkind: Config\ncurrent-context: dev\n"
                         "clusters:\n- name: c\n  cluster: {server: 'https://127.0.0.1:1'}\n"
                         "users:\n- name: u\n  user: {token: not-a-real-token}\n"
                         "contexts:\n- name: dev\n  context: {cluster: c, user: u}\n"
                         "- name: prod\n  context: {cluster: c, user: u, namespace: team-a}\n";
  ClientLookup lookup([](const Scope& s) { return factory_with(nullptr, s, "default"); });
  Scope s;
  s.kubeconfig = path;
  CHECK(lookup.contexts(s) == Strings{"dev", "prod"});
  ClientLookup missing([](const Scope& s) { return factory_with(nullptr, s, "default"); });
  s.kubeconfig = dir + "/missing";
  CHECK(missing.contexts(s).empty());
}
