// Authentication and headers of the REST client, seen by a real HTTPS server on 127.0.0.1,
// and the debug log that must never show a credential.
#include <catch2/catch.hpp>

#include <atomic>
#include <fstream>

#include "core/errors.h"
#include "core/version.h"
#include "kube/curl_client.h"
#include "support/paths.h"
#include "test_client_fixture.h"

using namespace trainctl;
using namespace trainctl::testing;

namespace {

// Echoes the headers the client sent.
void serve_echo(HttpsServer& server) {
  auto echo = [](const httplib::Request& req, httplib::Response& res) {
    nlohmann::json j;
    for (const char* h : {"Authorization", "User-Agent", "Accept", "Accept-Encoding", "Content-Type"}) {
      j[h] = req.has_header(h) ? req.get_header_value(h) : "";
    }
    j["method"] = req.method;
    j["body"] = req.body;
    res.set_content(j.dump(), "application/json");
  };
  server.routes().Get("/echo", echo);
  server.routes().Post("/echo", echo);
}

const char* const k_token = "tok-9f8e7d6c5b4a39281706";
const char* const k_password = "pw-Zq8!xY3#secret";

}  // namespace

TEST_CASE("a bearer token reaches the server in the Authorization header", "[client][auth]") {
  ServerFixture fx;
  serve_echo(fx.server);
  fx.server.start();
  kube::RestConfig config = fx.config();
  config.bearer_token = k_token;
  auto waits = std::make_shared<RecordedWaits>();
  auto client = kube::make_curl_client(config, fast_options(waits));
  CHECK(client->get_json("/echo")["Authorization"] == std::string("Bearer ") + k_token);
}

TEST_CASE("basic auth sends username and password", "[client][auth]") {
  ServerFixture fx;
  serve_echo(fx.server);
  fx.server.start();
  kube::RestConfig config = fx.config();
  config.username = "admin";
  config.password = "s3cret";
  auto waits = std::make_shared<RecordedWaits>();
  auto client = kube::make_curl_client(config, fast_options(waits));
  // base64("admin:s3cret") computed by hand: YWRtaW46czNjcmV0
  CHECK(client->get_json("/echo")["Authorization"] == "Basic YWRtaW46czNjcmV0");
}

TEST_CASE("requests carry User-Agent, Accept, gzip and Content-Type", "[client][headers]") {
  ServerFixture fx;
  serve_echo(fx.server);
  fx.server.routes().Patch("/echo", [](const httplib::Request& req, httplib::Response& res) {
    res.set_content(nlohmann::json{{"ct", req.get_header_value("Content-Type")}, {"body", req.body}}.dump(),
                    "application/json");
  });
  fx.server.start();
  auto waits = std::make_shared<RecordedWaits>();
  auto client = kube::make_curl_client(fx.config(), fast_options(waits));

  const auto got = client->get_json("/echo");
  CHECK(got["User-Agent"] == "trainctl/" + version_info().version);
  CHECK(got["Accept"] == "application/json");
  CHECK(got["Accept-Encoding"].get<std::string>().find("gzip") != std::string::npos);
  CHECK(got["Authorization"] == "");

  const auto posted = client->post_json("/echo", nlohmann::json{{"kind", "Pod"}});
  CHECK(posted["method"] == "POST");
  CHECK(posted["Content-Type"] == "application/json");
  CHECK(nlohmann::json::parse(posted["body"].get<std::string>()) == nlohmann::json{{"kind", "Pod"}});

  kube::Request patch;
  patch.method = "PATCH";
  patch.path = "/echo";
  patch.body = R"({"metadata":{"labels":{"a":"b"}}})";
  patch.content_type = "application/merge-patch+json";
  const auto patched = nlohmann::json::parse(client->send(patch).body);
  CHECK(patched["ct"] == "application/merge-patch+json");
  CHECK(patched["body"] == patch.body);
}

TEST_CASE("a rotated token file is re-read after a 401 and the request retried once", "[client][auth]") {
  ServerFixture fx;
  std::atomic<int> attempts{0};
  fx.server.routes().Get("/secret", [&](const httplib::Request& req, httplib::Response& res) {
    ++attempts;
    if (req.get_header_value("Authorization") != "Bearer new-token-2222") {
      res.status = 401;
      res.set_content(R"({"kind":"Status","apiVersion":"v1","status":"Failure","message":"Unauthorized",)"
                      R"("reason":"Unauthorized","code":401})",
                      "application/json");
      return;
    }
    res.set_content(R"({"ok":true})", "application/json");
  });
  fx.server.start();
  const std::string dir = make_temp_dir("client-token");
  const std::string token_file = dir + "/token";
  std::ofstream(token_file) << "old-token-1111\n";

  kube::RestConfig config = fx.config();
  config.bearer_token = "old-token-1111";
  config.token_file = token_file;
  auto waits = std::make_shared<RecordedWaits>();
  auto client = kube::make_curl_client(config, fast_options(waits));

  SECTION("the file still holds the old token: 401 is an ApiError with exit code Auth") {
    try {
      client->get_json("/secret");
      FAIL("expected a 401");
    } catch (const ApiError& e) {
      CHECK(e.http_status() == 401);
      CHECK(e.reason() == "Unauthorized");
      CHECK(e.code() == ExitCode::Auth);
    }
    CHECK(attempts == 1);
  }
  SECTION("the file was rotated: the retry carries the new token") {
    std::ofstream(token_file) << "new-token-2222\n";
    CHECK(client->get_json("/secret")["ok"] == true);
    CHECK(attempts == 2);
  }
}

TEST_CASE("debug log shows method, URL and status but never a credential", "[client][log]") {
  ServerFixture fx;
  serve_echo(fx.server);
  fx.server.routes().Get("/missing", [](const httplib::Request&, httplib::Response& res) {
    res.status = 404;
    res.set_content(R"({"kind":"Status","apiVersion":"v1","status":"Failure","message":"not here",)"
                    R"("reason":"NotFound","code":404})",
                    "application/json");
  });
  fx.server.start();
  auto waits = std::make_shared<RecordedWaits>();
  LogCapture capture(log::Level::Debug);

  kube::RestConfig with_token = fx.config();
  with_token.bearer_token = k_token;
  auto token_client = kube::make_curl_client(with_token, fast_options(waits));
  const auto echoed = token_client->get_json("/echo");
  CHECK(echoed["Authorization"] == std::string("Bearer ") + k_token);  // it was sent...
  CHECK_THROWS_AS(token_client->get_json("/missing"), ApiError);

  kube::RestConfig with_password = fx.config();
  with_password.username = "admin";
  with_password.password = k_password;
  auto basic_client = kube::make_curl_client(with_password, fast_options(waits));
  basic_client->post_json("/echo", nlohmann::json{{"a", 1}});

  const std::string text = capture.text();
  INFO(text);
  CHECK(text.find("GET " + fx.server.url() + "/echo 200") != std::string::npos);
  CHECK(text.find("GET " + fx.server.url() + "/missing 404") != std::string::npos);
  CHECK(text.find("POST " + fx.server.url() + "/echo 200") != std::string::npos);
  CHECK(text.find(" ms") != std::string::npos);
  // ...but never logged.
  CHECK(text.find(k_token) == std::string::npos);
  CHECK(text.find(k_password) == std::string::npos);
  CHECK(text.find("Authorization") == std::string::npos);
  // And the secrets are registered, so any later line that carried one would be scrubbed.
  CHECK(log::redact(std::string("x ") + k_token) == "x <redacted>");
  CHECK(log::redact(std::string("x ") + k_password) == "x <redacted>");
  // base64("admin:pw-Zq8!xY3#secret"), the Basic header value, computed by hand.
  CHECK(log::redact("x YWRtaW46cHctWnE4IXhZMyNzZWNyZXQ=") == "x <redacted>");
}
