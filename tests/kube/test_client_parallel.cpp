// Parallel requests (send_all) and connection reuse of the REST client against a real HTTPS
// server on 127.0.0.1 (paged reads: test_list_reads.cpp).
#include <catch2/catch.hpp>

#include <atomic>
#include <mutex>
#include <set>

#include "core/errors.h"
#include "core/log.h"
#include "kube/curl_client.h"
#include "test_client_fixture.h"

using namespace trainctl;
using namespace trainctl::testing;

TEST_CASE("send_all returns results in request order, errors in their slots", "[client][parallel]") {
  ServerFixture fx;
  std::atomic<int> in_flight{0};
  std::atomic<int> max_in_flight{0};
  fx.server.routes().Get(R"(/items/(\d+))", [&](const httplib::Request& req, httplib::Response& res) {
    const int n = std::stoi(req.matches[1]);
    const int now = ++in_flight;
    for (int seen = max_in_flight; now > seen && !max_in_flight.compare_exchange_weak(seen, now);) {
    }
    // Earlier items answer later, so completion order is the reverse of request order.
    std::this_thread::sleep_for(std::chrono::milliseconds(20 * (5 - n)));
    --in_flight;
    if (n == 3) {
      res.status = 404;
      res.set_content(R"({"kind":"Status","status":"Failure","message":"item 3 not found","reason":"NotFound",)"
                      R"("code":404})",
                      "application/json");
      return;
    }
    res.set_content(nlohmann::json{{"n", n}}.dump(), "application/json");
  });
  fx.server.start();
  auto waits = std::make_shared<RecordedWaits>();
  auto client = kube::make_curl_client(fx.config(), fast_options(waits));
  std::vector<kube::Request> requests(5);
  for (int i = 0; i < 5; ++i) requests[i].path = "/items/" + std::to_string(i);
  const auto results = client->send_all(requests);
  REQUIRE(results.size() == 5);
  for (int i = 0; i < 5; ++i) {
    INFO("item " << i);
    if (i == 3) {
      REQUIRE(results[i].error);
      CHECK_THROWS_WITH(std::rethrow_exception(results[i].error), "item 3 not found");
    } else {
      CHECK_FALSE(results[i].error);
      CHECK(nlohmann::json::parse(results[i].response.body)["n"] == i);
    }
  }
  CHECK(max_in_flight > 1);  // they ran at the same time
}

TEST_CASE("send_all retries the requests that got a 503 and keeps the others", "[client][parallel]") {
  ServerFixture fx;
  std::atomic<int> flaky_attempts{0};
  std::atomic<int> steady_attempts{0};
  fx.server.routes().Get("/flaky", [&](const httplib::Request&, httplib::Response& res) {
    if (++flaky_attempts == 1) {
      res.status = 503;
      res.set_content(R"({"kind":"Status","status":"Failure","message":"busy","reason":"ServiceUnavailable",)"
                      R"("code":503})",
                      "application/json");
      return;
    }
    res.set_content(R"({"which":"flaky"})", "application/json");
  });
  fx.server.routes().Get("/steady", [&](const httplib::Request&, httplib::Response& res) {
    ++steady_attempts;
    res.set_content(R"({"which":"steady"})", "application/json");
  });
  fx.server.start();
  auto waits = std::make_shared<RecordedWaits>();
  auto client = kube::make_curl_client(fx.config(), fast_options(waits));
  std::vector<kube::Request> requests(2);
  requests[0].path = "/flaky";
  requests[1].path = "/steady";
  const auto results = client->send_all(requests);
  REQUIRE(results.size() == 2);
  REQUIRE_FALSE(results[0].error);
  REQUIRE_FALSE(results[1].error);
  CHECK(nlohmann::json::parse(results[0].response.body)["which"] == "flaky");
  CHECK(nlohmann::json::parse(results[1].response.body)["which"] == "steady");
  CHECK(flaky_attempts == 2);
  CHECK(steady_attempts == 1);
  CHECK(waits->count() == 1);
}

TEST_CASE("consecutive requests reuse one connection", "[client][connection]") {
  ServerFixture fx;
  std::vector<int> ports;
  std::mutex mutex;
  fx.server.routes().Get("/ping", [&](const httplib::Request& req, httplib::Response& res) {
    std::lock_guard lock(mutex);
    ports.push_back(req.remote_port);
    res.set_content("{}", "application/json");
  });
  fx.server.start();
  auto waits = std::make_shared<RecordedWaits>();
  auto client = kube::make_curl_client(fx.config(), fast_options(waits));
  for (int i = 0; i < 4; ++i) client->get_json("/ping");
  REQUIRE(ports.size() == 4);
  CHECK(std::set<int>(ports.begin(), ports.end()).size() == 1);
}
