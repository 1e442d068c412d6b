#include "rest_fixture.h"

#include "kubesim/builtin_types.h"

#include <catch2/catch.hpp>
#include <zlib.h>

using kubesim::json;
using kubesim::testing::SimServer;
using kubesim::testing::gunzip;
using kubesim::testing::add_padded_pods;

TEST_CASE("lists over 128 KiB go out gzip-encoded at the client's request, smaller ones plain",
          "[kubesim][rest][gzip]") {
  SimServer sim;
  add_padded_pods(sim, 100);
  auto c = sim.client();
  c->set_decompress(false);
  httplib::Headers gz = {{"Accept-Encoding", "gzip"}};

  auto plain = c->Get("/api/v1/namespaces/default/pods");
  REQUIRE(plain->status == 200);
  CHECK(!plain->has_header("Content-Encoding"));
  json want = json::parse(plain->body);
  REQUIRE(want["items"].size() == 100);
  CHECK(want["items"][99]["metadata"]["name"] == "p099");

  auto big = c->Get("/api/v1/namespaces/default/pods", gz);
  REQUIRE(big->status == 200);
  CHECK(big->get_header_value("Content-Encoding") == "gzip");
  CHECK(json::parse(gunzip(big->body)) == want);

  // br alone is not gzip: no encoding (never brotli)
  auto br = c->Get("/api/v1/namespaces/default/pods", {{"Accept-Encoding", "br"}});
  CHECK(!br->has_header("Content-Encoding"));
  CHECK(json::parse(br->body) == want);

  auto small = c->Get("/api/v1/namespaces/default/pods?limit=10", gz);
  CHECK(!small->has_header("Content-Encoding"));
  json page = json::parse(small->body);
  CHECK(page["items"].size() == 10);
  CHECK(page["metadata"]["remainingItemCount"] == 90);

  // a continued page over the threshold, gzip-encoded, goes on after the first
  auto rest = c->Get(("/api/v1/namespaces/default/pods?limit=80&continue=" +
                      httplib::detail::encode_query_param(page["metadata"]["continue"].get<std::string>()))
                         .c_str(),
                     gz);
  REQUIRE(rest->status == 200);
  CHECK(rest->get_header_value("Content-Encoding") == "gzip");
  json second = json::parse(gunzip(rest->body));
  REQUIRE(second["items"].size() == 80);
  CHECK(second["items"][0]["metadata"]["name"] == "p010");
  CHECK(second["metadata"]["remainingItemCount"] == 10);
}

TEST_CASE("lists are written in kube-apiserver's key order: struct fields for built-in kinds, sorted keys for custom resources",
          "[kubesim][rest]") {
  SimServer sim;
  kubesim::register_builtin_crds(sim.store);
  sim.store.create(*sim.store.resolve("mpijobs"),
                   json{{"apiVersion", "kubeflow.org/v2beta1"},
                        {"kind", "MPIJob"},
                        {"metadata", {{"name", "m"}, {"namespace", "default"}}},
                        {"spec", {{"mpiReplicaSpecs", json::object()}}}});
  add_padded_pods(sim, 1);
  auto c = sim.client();
  // The top-level keys in the order the body writes them.
  auto order = [](const std::string& body) {
    const auto doc = nlohmann::ordered_json::parse(body);
    std::vector<std::string> keys;
    for (auto it = doc.begin(); it != doc.end(); ++it) keys.push_back(it.key());
    return keys;
  };
  // PodList in k8s.io/api core/v1/types.go: TypeMeta (kind, apiVersion), ListMeta, Items.
  auto pods = c->Get("/api/v1/namespaces/default/pods");
  REQUIRE(pods->status == 200);
  CHECK(order(pods->body) == std::vector<std::string>{"kind", "apiVersion", "metadata", "items"});
  // An UnstructuredList is a Go map: encoding/json sorts its keys.
  auto mpijobs = c->Get("/apis/kubeflow.org/v2beta1/namespaces/default/mpijobs?limit=1");
  REQUIRE(mpijobs->status == 200);
  CHECK(order(mpijobs->body) == std::vector<std::string>{"apiVersion", "items", "kind", "metadata"});
  const json list = json::parse(mpijobs->body);
  CHECK(list["kind"] == "MPIJobList");
  CHECK(list["items"][0]["metadata"]["name"] == "m");
}
