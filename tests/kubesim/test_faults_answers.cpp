// The fault actions that give a broken answer rather than none: a body cut short under its
// full Content-Length, 200 with a body that is not JSON, a proxy's HTML error page.
#include "kubesim/faults.h"

#include "rest_fixture.h"

#include <catch2/catch.hpp>

using kubesim::FaultInjector;
using kubesim::json;
using kubesim::testing::SimServer;

namespace {

void set_rule(SimServer& sim, const char* rule) { sim.server->faults().set(FaultInjector::parse(json::parse(rule))); }

}  // namespace

TEST_CASE("fault rules: truncate, malformed and html parse and report their fields", "[kubesim][faults]") {
  auto rules = FaultInjector::parse(json::parse(R"([
    {"action":"truncate","bytes":10},{"action":"malformed"},{"action":"html"},{"action":"html","status":503}])"));
  REQUIRE(rules.size() == 4);
  CHECK(rules[0].bytes == 10);
  CHECK(rules[0].to_json()["bytes"] == 10);
  CHECK(rules[2].status == 502);  // a proxy's Bad Gateway unless told otherwise
  CHECK(rules[3].status == 503);
  CHECK(rules[2].to_json()["status"] == 502);
  CHECK_THROWS_AS(FaultInjector::parse(json::parse(R"([{"action":"html","status":99}])")), std::invalid_argument);

  kubesim::FaultRule half;
  half.action = "truncate";
  CHECK(kubesim::truncated_size(half, 100) == 50);
  half.bytes = 500;
  CHECK(kubesim::truncated_size(half, 100) == 99);  // never the whole body
  CHECK(kubesim::truncated_size(half, 0) == 0);
}

TEST_CASE("faults over HTTP: malformed answers 200 with a body that is not JSON", "[kubesim][faults]") {
  SimServer sim;
  set_rule(sim, R"([{"path":"^/api/v1/namespaces$","first":1,"action":"malformed"}])");
  auto r = sim.client()->Get("/api/v1/namespaces");
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(r->get_header_value("Content-Type") == "application/json");
  CHECK(json::parse(r->body, nullptr, false).is_discarded());
  r = sim.client()->Get("/api/v1/namespaces");  // first:1 fired already
  REQUIRE(r);
  CHECK_FALSE(json::parse(r->body, nullptr, false).is_discarded());
}

TEST_CASE("faults over HTTP: html answers like nginx in front of the API server", "[kubesim][faults]") {
  SimServer sim;
  set_rule(sim, R"([{"path":"^/api/v1/nodes","action":"html","status":503}])");
  auto r = sim.client()->Get("/api/v1/nodes");
  REQUIRE(r);
  CHECK(r->status == 503);
  CHECK(r->get_header_value("Content-Type") == "text/html");
  CHECK(r->body.find("<title>503 Service Temporarily Unavailable</title>") != std::string::npos);
  CHECK(r->body.find("nginx") != std::string::npos);
  CHECK(r->body.find('{') == std::string::npos);
}

TEST_CASE("faults over HTTP: truncate sends part of the real body, then closes", "[kubesim][faults]") {
  SimServer sim;
  auto c = sim.client();
  c->set_decompress(false);
  auto whole = c->Get("/api/v1/namespaces");
  REQUIRE(whole);
  REQUIRE(whole->status == 200);
  const std::string& full = whole->body;
  REQUIRE(full.size() > 40);

  set_rule(sim, R"([{"path":"^/api/v1/namespaces$","action":"truncate","bytes":30}])");
  std::string got;
  auto fresh = sim.client();
  fresh->set_decompress(false);
  auto r = fresh->Get("/api/v1/namespaces", [&](const char* data, size_t n) {
    got.append(data, n);
    return true;
  });
  CHECK_FALSE(r);  // fewer bytes than the Content-Length announced
  CHECK(got == full.substr(0, 30));

  // A create under truncate still happens: only its answer is lost.
  set_rule(sim, R"([{"method":"POST","action":"truncate"}])");
  json ns = {{"metadata", {{"name", "cut-answer"}}}};
  auto created = sim.client()->Post("/api/v1/namespaces", ns.dump(), "application/json");
  CHECK_FALSE(created);
  sim.server->faults().clear();
  auto after = sim.client()->Get("/api/v1/namespaces/cut-answer");
  REQUIRE(after);
  CHECK(after->status == 200);
}
