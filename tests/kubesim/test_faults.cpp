#include <algorithm>
#include <catch2/catch.hpp>

#include "kubesim/faults.h"
#include "rest_fixture.h"

using kubesim::FaultInjector;
using kubesim::json;
using kubesim::testing::body_json;
using kubesim::testing::SimServer;

TEST_CASE("fault rules: first, every, count and method/path matching", "[kubesim][faults]") {
  FaultInjector f;
  f.set(FaultInjector::parse(json::parse(R"({"rules":[
    {"method":"GET","path":"^/api/v1/pods","every":2,"count":2,"action":"status","status":503},
    {"path":"/log$","first":1,"action":"cut","lines":3}]})")));
  std::vector<bool> fired;
  for (int i = 0; i < 6; ++i) fired.push_back(f.decide("GET", "/api/v1/pods").has_value());
  CHECK(fired == std::vector<bool>{false, true, false, true, false, false});  // count 2 reached
  CHECK_FALSE(f.decide("POST", "/api/v1/pods"));
  auto cut = f.decide("GET", "/api/v1/namespaces/d/pods/p/log");
  REQUIRE(cut);
  CHECK(cut->action == "cut");
  CHECK(cut->lines == 3);
  CHECK_FALSE(f.decide("GET", "/api/v1/namespaces/d/pods/p/log"));
  CHECK_THROWS_AS(FaultInjector::parse(json::parse(R"([{"action":"explode"}])")), std::invalid_argument);
  CHECK_THROWS_AS(FaultInjector::parse(json::parse(R"([{"path":"(("}])")), std::invalid_argument);
}

TEST_CASE("faults over HTTP: 429 with Retry-After, reset, and the admin endpoint", "[kubesim][faults]") {
  SimServer sim;
  auto c = sim.client();
  auto r = c->Post("/kubesim/faults",
                   R"([{"path":"^/api/v1/namespaces$","first":1,"action":"status","status":429,"retryAfter":2}])",
                   "application/json");
  REQUIRE(r);
  CHECK(r->status == 200);
  r = c->Get("/api/v1/namespaces");
  REQUIRE(r);
  CHECK(r->status == 429);
  CHECK(r->get_header_value("Retry-After") == "2");
  CHECK(body_json(r)["reason"] == "TooManyRequests");
  r = c->Get("/api/v1/namespaces");
  CHECK(r->status == 200);

  c->Put("/kubesim/faults", R"([{"path":"^/api/v1/nodes","action":"reset"}])", "application/json");
  auto fresh = sim.client();
  r = fresh->Get("/api/v1/nodes");
  CHECK_FALSE(r);  // connection reset, no response

  r = c->Delete("/kubesim/faults");
  CHECK(r->status == 200);
  CHECK(body_json(r)["rules"].empty());
  r = sim.client()->Get("/api/v1/nodes");
  REQUIRE(r);
  CHECK(r->status == 200);

  auto anon = sim.client(false);
  r = anon->Delete("/kubesim/faults");
  CHECK(r->status == 401);
}

TEST_CASE("faults: a cut rule closes a log stream after N lines", "[kubesim][faults]") {
  SimServer sim;
  auto c = sim.client();
  json p = {{"metadata", {{"name", "p"}}}, {"spec", {{"containers", {{{"name", "c"}, {"image", "i"}}}}}}};
  REQUIRE(c->Post("/api/v1/namespaces/default/pods", p.dump(), "application/json")->status == 201);
  for (int i = 0; i < 5; ++i) sim.logs.append("default", "p", "c", "line " + std::to_string(i));
  sim.server->faults().set(FaultInjector::parse(json::parse(R"([{"path":"/log$","action":"cut","lines":2}])")));
  std::string got;
  auto r = c->Get("/api/v1/namespaces/default/pods/p/log?follow=true",
                  [&](const char* data, size_t n) {
                    got.append(data, n);
                    return true;
                  });
  CHECK(got == "line 0\nline 1\n");
  CHECK_FALSE(r);  // the stream ended without its terminating chunk
}

TEST_CASE("faults: an end rule ends a watch cleanly after N events, as a proxy closing idle streams",
          "[kubesim][faults]") {
  SimServer sim;
  auto c = sim.client();
  json cm = {{"metadata", {{"name", "a"}}}, {"data", {{"k", "v"}}}};
  REQUIRE(c->Post("/api/v1/namespaces/default/configmaps", cm.dump(), "application/json")->status == 201);
  sim.server->faults().set(
      FaultInjector::parse(json::parse(R"([{"query":"watch=true","action":"end","first":1},
                                           {"query":"watch=true","action":"end","lines":1}])")));
  for (int events : {0, 1}) {
    std::string got;
    // Listed from resourceVersion 0, the watch has one ADDED event to send; the stream would
    // otherwise last its 30 s.
    auto r = c->Get("/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=0&timeoutSeconds=30",
                    [&](const char* data, size_t n) {
                      got.append(data, n);
                      return true;
                    });
    REQUIRE(r);  // the terminating chunk came: a clean end, not a cut
    CHECK(r->status == 200);
    CHECK(std::count(got.begin(), got.end(), '\n') == events);
  }
}
