// Retries of the REST client against a real HTTPS server on 127.0.0.1. Waits between
// attempts are recorded by ClientOptions::sleep instead of slept, so the tests check the
// waits asked for without depending on timing.
#include <catch2/catch.hpp>

#include <sys/socket.h>
#include <netinet/in.h>
#include <unistd.h>

#include <atomic>

#include "core/errors.h"
#include "kube/curl_client.h"
#include "test_client_fixture.h"

using namespace trainctl;
using namespace trainctl::testing;

namespace {

const char* const k_unavailable =
    R"({"kind":"Status","apiVersion":"v1","status":"Failure","message":"etcd is busy",)"
    R"("reason":"ServiceUnavailable","code":503})";

// Answers `failures` times with `status` (and Retry-After when given), then 200.
void serve_flaky(HttpsServer& server, std::atomic<int>& attempts, int failures, int status,
                 const std::string& retry_after = "") {
  auto handler = [&attempts, failures, status, retry_after](const httplib::Request&, httplib::Response& res) {
    if (++attempts <= failures) {
      res.status = status;
      if (!retry_after.empty()) res.set_header("Retry-After", retry_after);
      res.set_content(k_unavailable, "application/json");
      return;
    }
    res.set_content(R"({"ok":true})", "application/json");
  };
  server.routes().Get("/flaky", handler);
  server.routes().Post("/flaky", handler);
}

// A port on 127.0.0.1 where nothing listens (bound, then closed).
int closed_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  ::close(fd);
  return ntohs(addr.sin_port);
}

}  // namespace

TEST_CASE("429 with Retry-After is retried after the time the server asks", "[client][retry]") {
  ServerFixture fx;
  std::atomic<int> attempts{0};
  serve_flaky(fx.server, attempts, 1, 429, "2");
  fx.server.start();
  auto waits = std::make_shared<RecordedWaits>();
  auto client = kube::make_curl_client(fx.config(), fast_options(waits));
  CHECK(client->get_json("/flaky")["ok"] == true);
  CHECK(attempts == 2);
  REQUIRE(waits->waits.size() == 1);
  CHECK(waits->waits[0] == std::chrono::seconds(2));  // not the 1 ms initial backoff
}

TEST_CASE("a Retry-After beyond max_retry_time gives up at once", "[client][retry]") {
  ServerFixture fx;
  std::atomic<int> attempts{0};
  serve_flaky(fx.server, attempts, 5, 429, "3600");
  fx.server.start();
  auto waits = std::make_shared<RecordedWaits>();
  auto client = kube::make_curl_client(fx.config(), fast_options(waits));
  try {
    client->get_json("/flaky");
    FAIL("expected a 429");
  } catch (const ApiError& e) {
    CHECK(e.http_status() == 429);
    CHECK(e.retry_after_seconds() == 3600);
  }
  CHECK(attempts == 1);
  CHECK(waits->count() == 0);
}

TEST_CASE("503 is retried with growing backoff until success", "[client][retry]") {
  ServerFixture fx;
  std::atomic<int> attempts{0};
  serve_flaky(fx.server, attempts, 2, 503);
  fx.server.start();
  auto waits = std::make_shared<RecordedWaits>();
  kube::ClientOptions options = fast_options(waits);
  options.initial_backoff = std::chrono::milliseconds(100);
  auto client = kube::make_curl_client(fx.config(), options);
  CHECK(client->get_json("/flaky")["ok"] == true);
  CHECK(attempts == 3);
  REQUIRE(waits->waits.size() == 2);
  // 100 ms then 200 ms, each plus at most 25 % jitter.
  CHECK(waits->waits[0] >= std::chrono::milliseconds(100));
  CHECK(waits->waits[0] <= std::chrono::milliseconds(125));
  CHECK(waits->waits[1] >= std::chrono::milliseconds(200));
  CHECK(waits->waits[1] <= std::chrono::milliseconds(250));
}

TEST_CASE("a POST answered with 503 is not retried", "[client][retry]") {
  ServerFixture fx;
  std::atomic<int> attempts{0};
  serve_flaky(fx.server, attempts, 1, 503);
  fx.server.start();
  auto waits = std::make_shared<RecordedWaits>();
  auto client = kube::make_curl_client(fx.config(), fast_options(waits));
  try {
    client->post_json("/flaky", nlohmann::json::object());
    FAIL("expected a 503");
  } catch (const ApiError& e) {
    CHECK(e.http_status() == 503);
    CHECK(e.reason() == "ServiceUnavailable");
    CHECK(std::string(e.what()) == "the server returned HTTP 503 Service Unavailable: etcd is busy");
  }
  CHECK(attempts == 1);
  CHECK(waits->count() == 0);
}

TEST_CASE("retries stop after max_retries", "[client][retry]") {
  ServerFixture fx;
  std::atomic<int> attempts{0};
  serve_flaky(fx.server, attempts, 1000, 503);
  fx.server.start();
  auto waits = std::make_shared<RecordedWaits>();
  kube::ClientOptions options = fast_options(waits);
  options.max_retries = 4;
  auto client = kube::make_curl_client(fx.config(), options);
  CHECK_THROWS_AS(client->get_json("/flaky"), ApiError);
  CHECK(attempts == 5);  // the first attempt and four retries
  CHECK(waits->count() == 4);
}

TEST_CASE("max_retry_time bounds the total wait", "[client][retry]") {
  ServerFixture fx;
  std::atomic<int> attempts{0};
  serve_flaky(fx.server, attempts, 1000, 502);
  fx.server.start();
  auto waits = std::make_shared<RecordedWaits>();
  kube::ClientOptions options = fast_options(waits);
  options.max_retries = 100;
  options.initial_backoff = std::chrono::milliseconds(100);
  options.max_retry_time = std::chrono::milliseconds(1000);
  auto client = kube::make_curl_client(fx.config(), options);
  CHECK_THROWS_AS(client->get_json("/flaky"), ApiError);
  std::chrono::milliseconds total{0};
  for (auto w : waits->waits) total += w;
  CHECK(total <= std::chrono::milliseconds(1000));
  CHECK(waits->count() >= 3);  // 100 + 200 + 400 (+ jitter) fit, then the rest of the budget
  CHECK(waits->count() < 10);
  CHECK(attempts == static_cast<int>(waits->count()) + 1);
}

TEST_CASE("a refused first connection fails at once, as kubectl does", "[client][retry]") {
  const int port = closed_port();
  kube::RestConfig config;
  config.server = "https://127.0.0.1:" + std::to_string(port);
  auto waits = std::make_shared<RecordedWaits>();
  auto client = kube::make_curl_client(config, fast_options(waits));

  SECTION("GET") {
    try {
      client->get_json("/api");
      FAIL("expected a TransportError");
    } catch (const TransportError& e) {
      CHECK(std::string(e.what()) == "cannot connect to " + config.server + ": connection refused");
      CHECK(e.code() == ExitCode::Error);
    }
    CHECK(waits->count() == 0);
  }
  SECTION("POST") {
    CHECK_THROWS_AS(client->post_json("/api/v1/namespaces/default/pods", nlohmann::json::object()),
                    TransportError);
    CHECK(waits->count() == 0);
  }
}

TEST_CASE("a refused connection after the server has answered is retried (it restarts)", "[client][retry]") {
  ServerFixture fx;
  fx.server.routes().Get("/api", [](const httplib::Request&, httplib::Response& res) {
    res.set_content("{}", "application/json");
  });
  fx.server.start();
  auto waits = std::make_shared<RecordedWaits>();
  auto client = kube::make_curl_client(fx.config(), fast_options(waits));
  CHECK_NOTHROW(client->get_json("/api"));
  fx.server.stop();
  CHECK_THROWS_AS(client->get_json("/api"), TransportError);
  CHECK(waits->count() == 3);  // then the retries are spent
  // A POST that never reached the server may be sent again too.
  CHECK_THROWS_AS(client->post_json("/api/v1/namespaces/default/pods", nlohmann::json::object()), TransportError);
  CHECK(waits->count() == 6);
}

TEST_CASE("a request that exceeds request_timeout fails and is not retried", "[client][retry]") {
  ServerFixture fx;
  std::atomic<int> attempts{0};
  fx.server.routes().Get("/slow", [&](const httplib::Request&, httplib::Response& res) {
    ++attempts;
    std::this_thread::sleep_for(std::chrono::milliseconds(600));
    res.set_content("{}", "application/json");
  });
  fx.server.start();
  auto waits = std::make_shared<RecordedWaits>();
  kube::ClientOptions options = fast_options(waits);
  options.request_timeout = std::chrono::milliseconds(150);
  auto client = kube::make_curl_client(fx.config(), options);
  try {
    client->get_json("/slow");
    FAIL("expected a timeout");
  } catch (const TransportError& e) {
    CHECK(std::string(e.what()).find("the request to " + fx.server.url() + "/slow timed out") == 0);
  }
  CHECK(attempts == 1);
  CHECK(waits->count() == 0);
}
