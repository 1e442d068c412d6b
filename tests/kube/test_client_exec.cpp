// The REST client with an exec credential plugin (a small shell script written by the
// test): the plugin's token or client certificate is used, and a 401 makes the client run
// the plugin again and retry once.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <atomic>
#include <fstream>

#include "core/errors.h"
#include "kube/curl_client.h"
#include "support/paths.h"
#include "test_client_fixture.h"
#include "test_kubeconfig_support.h"

using namespace trainctl;
using namespace trainctl::testing;
using trainctl::kube::test::read_text;

namespace {

// A plugin that counts its runs in DIR/count and prints DIR/cred-<run>.json.
kube::ExecConfig write_plugin(const std::string& dir) {
  const std::string script = dir + "/plugin.sh";
  std::ofstream(script) << "#!/bin/sh\n"
                           "n=$(cat \"$1/count\" 2>/dev/null || echo 0)\n"
                           "n=$((n + 1))\n"
                           "echo \"$n\" > \"$1/count\"\n"
                           "cat \"$1/cred-$n.json\"\n";
  ::chmod(script.c_str(), 0755);
  kube::ExecConfig exec;
  exec.api_version = "client.authentication.k8s.io/v1beta1";
  exec.command = script;
  exec.args = {dir};
  return exec;
}

void write_credential(const std::string& dir, int run, const nlohmann::json& status) {
  const nlohmann::json cred{
      {"apiVersion", "client.authentication.k8s.io/v1beta1"}, {"kind", "ExecCredential"}, {"status", status}};
  std::ofstream(dir + "/cred-" + std::to_string(run) + ".json") << cred.dump();
}

}  // namespace

TEST_CASE("an exec plugin's token is used and refreshed once after a 401", "[client][exec]") {
  ServerFixture fx;
  std::atomic<int> attempts{0};
  fx.server.routes().Get("/api", [&](const httplib::Request& req, httplib::Response& res) {
    ++attempts;
    if (req.get_header_value("Authorization") != "Bearer exec-token-second") {
      res.status = 401;
      res.set_content(R"({"kind":"Status","apiVersion":"v1","status":"Failure","message":"Unauthorized",)"
                      R"("reason":"Unauthorized","code":401})",
                      "application/json");
      return;
    }
    res.set_content(R"({"kind":"APIVersions"})", "application/json");
  });
  fx.server.routes().Get("/forbidden-now", [&](const httplib::Request&, httplib::Response& res) {
    ++attempts;
    res.status = 401;
    res.set_content(R"({"kind":"Status","status":"Failure","message":"Unauthorized","reason":"Unauthorized",)"
                    R"("code":401})",
                    "application/json");
  });
  fx.server.start();
  const std::string dir = make_temp_dir("client-exec-token");
  write_credential(dir, 1, {{"token", "exec-token-first"}});
  write_credential(dir, 2, {{"token", "exec-token-second"}});
  write_credential(dir, 3, {{"token", "exec-token-third"}});

  kube::RestConfig config = fx.config();
  config.exec = write_plugin(dir);
  auto waits = std::make_shared<RecordedWaits>();
  auto client = kube::make_curl_client(config, fast_options(waits));

  CHECK(client->get_json("/api")["kind"] == "APIVersions");
  CHECK(attempts == 2);
  CHECK(read_text(dir + "/count") == "2\n");
  // The credential is cached: the next request does not run the plugin again.
  CHECK(client->get_json("/api")["kind"] == "APIVersions");
  CHECK(read_text(dir + "/count") == "2\n");

  // Rejected again: one refresh (run 3 still gets 401), then the 401 is the answer.
  attempts = 0;
  try {
    client->get_json("/forbidden-now");
    FAIL("expected a 401");
  } catch (const ApiError& e) {
    CHECK(e.http_status() == 401);
    CHECK(e.code() == ExitCode::Auth);
  }
  CHECK(attempts == 2);
  CHECK(read_text(dir + "/count") == "3\n");
}

TEST_CASE("an exec plugin's client certificate is presented to the server", "[client][exec]") {
  ServerFixture fx(/*require_client_cert=*/true);
  fx.server.routes().Get("/whoami", [](const httplib::Request& req, httplib::Response& res) {
    res.set_content(nlohmann::json{{"user", peer_common_name(req)}}.dump(), "application/json");
  });
  fx.server.start();
  const std::string dir = make_temp_dir("client-exec-cert");
  const CertAndKey bob = fx.ca.issue_client("bob", {"developers"});
  write_credential(dir, 1, {{"clientCertificateData", bob.cert_pem}, {"clientKeyData", bob.key_pem}});

  kube::RestConfig config = fx.config();
  config.exec = write_plugin(dir);
  auto waits = std::make_shared<RecordedWaits>();
  auto client = kube::make_curl_client(config, fast_options(waits));
  CHECK(client->get_json("/whoami")["user"] == "bob");
}
