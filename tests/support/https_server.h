// A real HTTPS server on 127.0.0.1 for tests (cpp-httplib's SSLServer on a free port, in
// its own thread). Register handlers on routes(), then start(); the destructor stops it.
#pragma once

#include <httplib.h>

#include <memory>
#include <string>
#include <thread>

#include "support/tls_fixture.h"

namespace trainctl::testing {

class HttpsServer {
public:
  struct Options {
    CertAndKey identity;        // the server's certificate and key
    std::string client_ca_pem;  // non-empty: clients must present a certificate it signed
    // Speak at most TLS 1.2, where a refused client certificate ends the handshake itself
    // (with TLS 1.3 the refusal comes after it, racing the client's first write).
    bool max_tls12 = false;
  };

  explicit HttpsServer(const Options& options);
  ~HttpsServer();
  HttpsServer(const HttpsServer&) = delete;
  HttpsServer& operator=(const HttpsServer&) = delete;

  httplib::Server& routes() { return *m_server; }
  // Binds 127.0.0.1 on a free port and serves in a thread; returns once it accepts.
  void start();
  void stop();

  int port() const { return m_port; }
  std::string url() const { return "https://127.0.0.1:" + std::to_string(m_port); }

private:
  std::unique_ptr<httplib::SSLServer> m_server;
  std::thread m_thread;
  int m_port = -1;
};

// The common name of the client certificate a request came with; empty when none.
std::string peer_common_name(const httplib::Request& request);

}  // namespace trainctl::testing
