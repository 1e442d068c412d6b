// Every credential the loader reads is registered for redaction and never logged.
#include <catch2/catch.hpp>

#include <vector>

#include "core/log.h"
#include "kube/config.h"
#include "test_client_fixture.h"
#include "test_kubeconfig_support.h"

using namespace trainctl;
using namespace trainctl::kube;
using trainctl::kube::test::fixture;
using trainctl::kube::test::options_with_env;
using trainctl::testing::LogCapture;

TEST_CASE("tokens, passwords and keys are registered with the log redactor") {
  LogCapture capture;
  auto o = options_with_env({{"KUBECONFIG", fixture("merge/second.yaml") + ":" + fixture("relative/config")}});
  RestConfig bob = load_rest_config(o);  // ctx-b: username/password
  REQUIRE(bob.password == "second-bob-password");
  CHECK(log::redact("password=second-bob-password") == "password=<redacted>");

  o.context = "no-namespace";  // user alice with a token
  RestConfig alice = load_rest_config(o);
  REQUIRE(alice.bearer_token == "second-alice-token");
  std::string redacted = log::redact("sending token second-alice-token now");
  CHECK(redacted == "sending token <redacted> now");

  o.context = "rel";  // tokenFile and client-key file
  RestConfig rel = load_rest_config(o);
  REQUIRE(!rel.client_key_pem.empty());
  CHECK(log::redact("key: " + rel.client_key_pem).find("fixture-client-key-from-file") == std::string::npos);
  CHECK(log::redact("fixture-token-from-file") == "<redacted>");

  // The loader logged which file and context it chose, but no credential.
  std::string logged = capture.text();
  CHECK(logged.find("using context \"rel\"") != std::string::npos);
  for (const char* secret : {"second-bob-password", "second-alice-token", "fixture-token-from-file",
                             "fixture-client-key-from-file"})
    CHECK(logged.find(secret) == std::string::npos);
}

TEST_CASE("decoded client-key-data is registered for redaction") {
  auto o = options_with_env({});
  o.kubeconfig_path = fixture("data/config");
  RestConfig c = load_rest_config(o);
  REQUIRE(c.client_key_pem == "client-key-3333");
  CHECK(log::redact("client-key-3333") == "<redacted>");
}
