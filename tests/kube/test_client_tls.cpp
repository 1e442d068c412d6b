// TLS of the REST client against a real HTTPS server on 127.0.0.1: server verification by
// the kubeconfig's CA, client certificates, tls-server-name, insecure-skip-tls-verify.
#include <catch2/catch.hpp>

#include "core/errors.h"
#include "kube/curl_client.h"
#include "test_client_fixture.h"

using namespace trainctl;
using namespace trainctl::testing;

namespace {

void serve_whoami(HttpsServer& server) {
  server.routes().Get("/whoami", [](const httplib::Request& req, httplib::Response& res) {
    const std::string cn = peer_common_name(req);
    res.set_content(nlohmann::json{{"user", cn}}.dump(), "application/json");
  });
}

// Runs f, expecting a TransportError; returns it.
template <typename F>
TransportError expect_transport_error(F&& f) {
  try {
    f();
  } catch (const TransportError& e) {
    return e;
  }
  FAIL("no TransportError was thrown");
  return TransportError("");
}

}  // namespace

TEST_CASE("client verifies the server with the kubeconfig's CA", "[client][tls]") {
  ServerFixture fx;
  serve_whoami(fx.server);
  fx.server.start();
  auto waits = std::make_shared<RecordedWaits>();
  auto client = kube::make_curl_client(fx.config(), fast_options(waits));
  CHECK(client->get_json("/whoami")["user"] == "");
}

TEST_CASE("a server certificate from another CA fails with a clear message", "[client][tls]") {
  ServerFixture fx;
  serve_whoami(fx.server);
  fx.server.start();
  kube::RestConfig config = fx.config();
  config.ca_pem = TestCa("some other CA").cert_pem();
  auto waits = std::make_shared<RecordedWaits>();
  auto client = kube::make_curl_client(config, fast_options(waits));
  const TransportError e = expect_transport_error([&] { client->get_json("/whoami"); });
  const std::string message = e.what();
  CHECK(message.find("server certificate of " + fx.server.url() + " is not trusted") != std::string::npos);
  CHECK(message.find("certificate authority of the kubeconfig") != std::string::npos);
  CHECK(message.find("test-cluster") != std::string::npos);
  CHECK(e.code() == ExitCode::Auth);
  CHECK(waits->count() == 0);  // a certificate problem is not retried
}

TEST_CASE("insecure-skip-tls-verify accepts an untrusted server", "[client][tls]") {
  ServerFixture fx;
  serve_whoami(fx.server);
  fx.server.start();
  kube::RestConfig config = fx.config();
  config.ca_pem.clear();
  config.insecure_skip_tls_verify = true;
  LogCapture quiet(log::Level::Warn);  // the once-per-process warning goes here, not to stderr
  auto waits = std::make_shared<RecordedWaits>();
  auto client = kube::make_curl_client(config, fast_options(waits));
  CHECK(client->get_json("/whoami").contains("user"));
}

TEST_CASE("client certificate authenticates to a server that requires one", "[client][tls]") {
  const bool tls12 = GENERATE(false, true);
  INFO("server limited to TLS 1.2: " << tls12);
  ServerFixture fx(/*require_client_cert=*/true, {"localhost"}, {"127.0.0.1"}, tls12);
  serve_whoami(fx.server);
  fx.server.start();
  auto waits = std::make_shared<RecordedWaits>();
  kube::RestConfig config = fx.config();
  const CertAndKey alice = fx.ca.issue_client("alice", {"system:masters"});
  config.client_cert_pem = alice.cert_pem;
  config.client_key_pem = alice.key_pem;
  auto client = kube::make_curl_client(config, fast_options(waits));
  CHECK(client->get_json("/whoami")["user"] == "alice");
  CHECK(client->get_json("/whoami")["user"] == "alice");
}

TEST_CASE("a server that requires a client certificate refuses a client without one", "[client][tls]") {
  auto waits = std::make_shared<RecordedWaits>();
  SECTION("TLS 1.2: the handshake fails and the message says why, no retry") {
    ServerFixture fx(true, {"localhost"}, {"127.0.0.1"}, /*max_tls12=*/true);
    serve_whoami(fx.server);
    fx.server.start();
    auto client = kube::make_curl_client(fx.config(), fast_options(waits));
    const TransportError e = expect_transport_error([&] { client->get_json("/whoami"); });
    CHECK(std::string(e.what()) == "the TLS handshake with " + fx.server.url() +
                                       " failed (TLS alert: handshake failure); the server asked for a client "
                                       "certificate and the kubeconfig gives none (the cause if the server "
                                       "requires one)");
    CHECK(waits->count() == 0);
  }
  SECTION("TLS 1.3: the refusal comes after the handshake; the message still says why") {
    ServerFixture fx(true);
    serve_whoami(fx.server);
    fx.server.start();
    auto client = kube::make_curl_client(fx.config(), fast_options(waits));
    const TransportError e = expect_transport_error([&] { client->get_json("/whoami"); });
    INFO(e.what());
    // Either the server's alert was read ("...requires a client certificate and the
    // kubeconfig gives none", exit code Auth, not retried) or the connection was torn down
    // first, which reads as a reset and is retried ("...asked for a client certificate and
    // the kubeconfig gives none").
    CHECK(std::string(e.what()).find("client certificate and the kubeconfig gives none") != std::string::npos);
  }
}

TEST_CASE("a client certificate from another CA is refused with exit code Auth", "[client][tls]") {
  ServerFixture fx(true, {"localhost"}, {"127.0.0.1"}, /*max_tls12=*/true);
  serve_whoami(fx.server);
  fx.server.start();
  kube::RestConfig config = fx.config();
  const CertAndKey mallory = TestCa("other").issue_client("mallory");
  config.client_cert_pem = mallory.cert_pem;
  config.client_key_pem = mallory.key_pem;
  auto waits = std::make_shared<RecordedWaits>();
  auto client = kube::make_curl_client(config, fast_options(waits));
  const TransportError e = expect_transport_error([&] { client->get_json("/whoami"); });
  CHECK(std::string(e.what()) == "the TLS connection to " + fx.server.url() +
                                     " failed: the server did not accept the client certificate of the kubeconfig "
                                     "(TLS alert: unknown CA)");
  CHECK(e.code() == ExitCode::Auth);
  CHECK(waits->count() == 0);
}

TEST_CASE("tls-server-name verifies the certificate against that name", "[client][tls]") {
  // The certificate names only kubernetes.internal, not 127.0.0.1.
  ServerFixture fx(false, {"kubernetes.internal"}, {});
  serve_whoami(fx.server);
  fx.server.start();
  auto waits = std::make_shared<RecordedWaits>();

  SECTION("without it the host name does not match") {
    auto client = kube::make_curl_client(fx.config(), fast_options(waits));
    const TransportError e = expect_transport_error([&] { client->get_json("/whoami"); });
    INFO(e.what());
    CHECK(std::string(e.what()).find("not valid for this host name") != std::string::npos);
    CHECK(e.code() == ExitCode::Auth);
  }
  SECTION("with it the connection still goes to 127.0.0.1 and succeeds") {
    kube::RestConfig config = fx.config();
    config.tls_server_name = "kubernetes.internal";
    auto client = kube::make_curl_client(config, fast_options(waits));
    CHECK(client->get_json("/whoami").contains("user"));
  }
}
