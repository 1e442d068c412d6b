// What kube-apiserver answers once the revision a client asks for is gone: an expired
// continue token (compaction on kubesim's clock, or the "expire" fault) is 410 Expired with
// etcd3's wording and a token to go on with (k8s.io/apiserver pkg/storage/etcd3/errors.go,
// compact.go); an expired watch is HTTP 200 and one ERROR event.
#include <catch2/catch.hpp>

#include "kubesim/store.h"
#include "rest_fixture.h"

using kubesim::json;
using kubesim::StatusError;
using kubesim::Store;
using kubesim::testing::body_json;
using kubesim::testing::SimServer;

namespace {

using Clock = std::chrono::system_clock;

const char* kMessage =
    "The provided continue parameter is too old to display a consistent list result. You can start a new "
    "list without the continue parameter, or use the continue token in this response to retrieve the "
    "remainder of the results. Continuing with the provided token results in an inconsistent list - "
    "objects that were created, modified, or deleted between the time the first chunk was returned and "
    "now may show up in the list.";

std::string encoded(const std::string& token) {
  std::string out;
  for (unsigned char ch : token) {
    if (std::isalnum(ch) || ch == '-' || ch == '_' || ch == '.') {
      out += static_cast<char>(ch);
    } else {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", ch);
      out += buf;
    }
  }
  return out;
}

json expiry_configmap(const std::string& name) {
  return {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", name}, {"namespace", "default"}}}};
}

}  // namespace

TEST_CASE("store: continue tokens expire once compaction has passed their list", "[kubesim][expiry]") {
  Store s;
  auto now = Clock::time_point(std::chrono::seconds(1'700'000'000));
  s.set_clock([&] { return now; });
  s.set_compaction_interval(std::chrono::seconds(300));
  const auto* cm = s.find("", "v1", "configmaps");
  for (const char* n : {"a", "b", "c"}) s.create(*cm, expiry_configmap(n));
  auto p1 = s.list(*cm, "default", nullptr, 1);
  REQUIRE(!p1.continue_token.empty());
  s.create(*cm, expiry_configmap("d"));  // a newer revision
  // One interval later etcd is compacted to the revision seen when the interval began: the
  // list's own revision, still readable.
  now += std::chrono::seconds(301);
  auto p2 = s.list(*cm, "default", nullptr, 1, p1.continue_token);
  REQUIRE(p2.items.size() == 1);
  CHECK((*p2.items[0])["metadata"]["name"] == "b");
  CHECK(p2.resource_version == p1.resource_version);  // a continued list keeps its revision
  // Two intervals later the list's revision is compacted away.
  now += std::chrono::seconds(300);
  try {
    s.list(*cm, "default", nullptr, 1, p2.continue_token);
    FAIL("no 410");
  } catch (const StatusError& e) {
    CHECK(e.code == 410);
    CHECK(e.reason == "Expired");
    CHECK(e.message == kMessage);
    REQUIRE(!e.list_continue.empty());
    // The token in the answer goes on from where the list was, at the latest revision.
    auto rest = s.list(*cm, "default", nullptr, 10, e.list_continue);
    REQUIRE(rest.items.size() == 2);
    CHECK((*rest.items[0])["metadata"]["name"] == "c");
    CHECK((*rest.items[1])["metadata"]["name"] == "d");
  }
  // A new list is fine.
  CHECK(s.list(*cm, "default", nullptr, 1).items.size() == 1);
}

TEST_CASE("REST: an expired continue token is 410 Expired with a token to go on", "[kubesim][expiry][rest]") {
  SimServer sim;
  auto c = sim.client();
  for (const char* n : {"a", "b", "c"})
    REQUIRE(c->Post("/api/v1/namespaces/default/configmaps", expiry_configmap(n).dump(), "application/json")->status == 201);
  json p1 = body_json(c->Get("/api/v1/namespaces/default/configmaps?limit=1"));
  const std::string token = encoded(p1["metadata"]["continue"]);
  REQUIRE(c->Post("/api/v1/namespaces/default/configmaps", expiry_configmap("d").dump(), "application/json")->status == 201);
  sim.store.compact();
  auto r = c->Get("/api/v1/namespaces/default/configmaps?limit=1&continue=" + token);
  REQUIRE(r);
  CHECK(r->status == 410);
  json st = body_json(r);
  CHECK(st["kind"] == "Status");
  CHECK(st["status"] == "Failure");
  CHECK(st["reason"] == "Expired");
  CHECK(st["code"] == 410);
  CHECK(st["message"] == kMessage);
  CHECK_FALSE(st.contains("details"));
  const std::string again = encoded(st["metadata"]["continue"]);
  json rest = body_json(c->Get("/api/v1/namespaces/default/configmaps?limit=10&continue=" + again));
  CHECK(rest["items"].size() == 3);
}

TEST_CASE("REST: the expire fault expires a continue token or a watch", "[kubesim][expiry][faults]") {
  SimServer sim;
  auto c = sim.client();
  for (const char* n : {"a", "b"})
    REQUIRE(c->Post("/api/v1/namespaces/default/configmaps", expiry_configmap(n).dump(), "application/json")->status == 201);
  sim.server->faults().set(kubesim::FaultInjector::parse(json::parse(
      R"([{"method":"GET","query":"continue=","action":"expire","first":1},
          {"method":"GET","query":"watch=true","action":"expire","first":1}])")));
  json p1 = body_json(c->Get("/api/v1/namespaces/default/configmaps?limit=1"));  // no continue: no fault
  REQUIRE(p1["items"].size() == 1);
  const std::string token = encoded(p1["metadata"]["continue"]);
  auto r = c->Get("/api/v1/namespaces/default/configmaps?limit=1&continue=" + token);
  CHECK(r->status == 410);
  CHECK(body_json(r)["message"] == kMessage);
  CHECK(c->Get("/api/v1/namespaces/default/configmaps?limit=1&continue=" + token)->status == 200);  // once

  const uint64_t rv = sim.store.resource_version();
  r = c->Get("/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=" + std::to_string(rv) +
             "&timeoutSeconds=5");
  REQUIRE(r);
  CHECK(r->status == 200);
  json ev = json::parse(r->body);
  CHECK(ev["type"] == "ERROR");
  CHECK(ev["object"]["code"] == 410);
  CHECK(ev["object"]["reason"] == "Expired");
  CHECK(ev["object"]["message"] ==
        "too old resource version: " + std::to_string(rv) + " (" + std::to_string(rv + 1) + ")");
}
