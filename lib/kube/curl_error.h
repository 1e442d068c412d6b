// Transport failures (no HTTP answer) turned into TransportError with a message a user can
// act on, and the classification the retry logic needs.
#pragma once

#include <curl/curl.h>

#include <string>

#include "core/errors.h"

namespace trainctl::kube {

// What libcurl reported about one failed transfer.
struct TransportFailure {
  CURLcode code = CURLE_OK;
  std::string detail;      // libcurl's error buffer
  long os_errno = 0;       // CURLINFO_OS_ERRNO
  bool connected = false;  // the connection was ready (TCP + TLS): the request may have been sent
  std::string url;         // the request's URL
  std::string server;      // the server of the config, e.g. https://127.0.0.1:6443
  int tls_alert = -1;      // description of a fatal TLS alert from the server (RFC 8446 6.2)
  bool sent_client_cert = false;
  bool client_cert_requested = false;  // the server's handshake asked for a client certificate
};

// The RFC name of a TLS alert description ("certificate required"), "alert N" if unknown.
std::string tls_alert_name(int description);

// Where the trust anchors came from, for certificate messages.
struct TlsContext {
  bool has_ca = false;       // the kubeconfig gave a CA (else: the system trust store)
  std::string cluster_name;  // may be empty
  std::string source;        // kubeconfig path(s) or "in-cluster"; may be empty
};

TransportError transport_error(const TransportFailure& failure, const TlsContext& tls);

// A TLS failure caused by certificates (server not trusted, client certificate rejected),
// which no retry can fix.
bool is_certificate_failure(const TransportFailure& failure);

// Connection refused/reset/closed, connect timeouts: worth retrying for idempotent requests.
// A request timeout (the transfer ran out of its time after connecting) is not retried.
bool is_retryable_transport(const TransportFailure& failure);

// The request certainly did not reach the server (nothing connected), so even a POST may be
// sent again.
bool never_reached_server(const TransportFailure& failure);

}  // namespace trainctl::kube
