#include "kube/curl_error.h"

#include <cerrno>
#include <cstring>

#include "core/log.h"

namespace trainctl::kube {
namespace {

bool contains(const std::string& text, const char* needle) { return text.find(needle) != std::string::npos; }

// A TLS alert the server sent ("tlsv13 alert certificate required", "tlsv1 alert unknown
// ca"...). With TLS 1.3 a rejected client certificate shows up this way, as an error
// reading the answer after the handshake.
bool is_tls_alert(const TransportFailure& f) { return contains(f.detail, " alert "); }

std::string with_detail(std::string message, const std::string& detail) {
  if (!detail.empty()) message += " (" + log::redact(detail) + ")";
  return message;
}

std::string ca_description(const TlsContext& tls) {
  if (!tls.has_ca) return "the system's trusted certificate authorities";
  std::string text = "the certificate authority of the kubeconfig";
  if (!tls.cluster_name.empty()) text += " (cluster \"" + tls.cluster_name + "\"";
  if (!tls.source.empty()) text += tls.cluster_name.empty() ? " (" + tls.source : ", " + tls.source;
  if (!tls.cluster_name.empty() || !tls.source.empty()) text += ")";
  return text;
}

std::string connect_reason(const TransportFailure& f) {
  if (f.os_errno == ECONNREFUSED) return "connection refused";
  if (f.os_errno == ETIMEDOUT) return "connection timed out";
  if (f.os_errno == EHOSTUNREACH) return "host unreachable";
  if (f.os_errno == ENETUNREACH) return "network unreachable";
  if (f.os_errno != 0) return std::strerror(static_cast<int>(f.os_errno));
  return "cannot reach the server";
}

}  // namespace

bool is_certificate_failure(const TransportFailure& f) {
  switch (f.code) {
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
      return true;
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
      return is_tls_alert(f) && (contains(f.detail, "certificate") || contains(f.detail, "unknown ca") ||
                                 contains(f.detail, "access denied"));
    default:
      return false;
  }
}

bool is_retryable_transport(const TransportFailure& f) {
  if (is_certificate_failure(f) || is_tls_alert(f)) return false;
  switch (f.code) {
    case CURLE_COULDNT_CONNECT:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
      return true;
    case CURLE_OPERATION_TIMEDOUT:
      return !f.connected;
    default:
      return false;
  }
}

bool never_reached_server(const TransportFailure& f) {
  return !f.connected && (f.code == CURLE_COULDNT_CONNECT || f.code == CURLE_COULDNT_RESOLVE_HOST ||
                          f.code == CURLE_COULDNT_RESOLVE_PROXY);
}

TransportError transport_error(const TransportFailure& f, const TlsContext& tls) {
  const std::string& where = f.server.empty() ? f.url : f.server;
  switch (f.code) {
    case CURLE_COULDNT_CONNECT:
      return TransportError("cannot connect to " + where + ": " + connect_reason(f));
    case CURLE_COULDNT_RESOLVE_HOST:
      return TransportError(with_detail("cannot connect to " + where + ": the host name does not resolve", f.detail));
    case CURLE_COULDNT_RESOLVE_PROXY:
      return TransportError(with_detail("cannot connect to " + where + ": the proxy's host name does not resolve", f.detail));
    case CURLE_OPERATION_TIMEDOUT:
      if (!f.connected) return TransportError("cannot connect to " + where + ": connection timed out");
      return TransportError(with_detail("the request to " + f.url + " timed out", f.detail));
    case CURLE_PEER_FAILED_VERIFICATION:
      if (contains(f.detail, "subject name") || contains(f.detail, "host name")) {
        return TransportError(with_detail("the server certificate of " + where +
                                              " is not valid for this host name (the kubeconfig's "
                                              "tls-server-name can name the one it was issued for)",
                                          f.detail),
                              ExitCode::Auth);
      }
      return TransportError(with_detail("the server certificate of " + where + " is not trusted by " +
                                            ca_description(tls),
                                        f.detail),
                            ExitCode::Auth);
    case CURLE_SSL_CACERT_BADFILE:
      return TransportError(with_detail("cannot use the certificate authority data of the kubeconfig", f.detail),
                            ExitCode::Auth);
    case CURLE_SSL_CERTPROBLEM:
      return TransportError(with_detail("cannot use the client certificate or key of the kubeconfig", f.detail),
                            ExitCode::Auth);
    default:
      break;
  }
  if (is_certificate_failure(f)) {
    return TransportError(with_detail("the TLS connection to " + where +
                                          " failed: the server did not accept the client certificate",
                                      f.detail),
                          ExitCode::Auth);
  }
  if (f.code == CURLE_SSL_CONNECT_ERROR || is_tls_alert(f)) {
    return TransportError(with_detail("the TLS handshake with " + where + " failed", f.detail));
  }
  if (f.code == CURLE_RECV_ERROR || f.code == CURLE_SEND_ERROR || f.code == CURLE_GOT_NOTHING ||
      f.code == CURLE_PARTIAL_FILE) {
    return TransportError(with_detail("the connection to " + where + " was closed before the answer was complete",
                                      f.detail));
  }
  return TransportError(with_detail("the request to " + f.url + " failed: " + curl_easy_strerror(f.code), f.detail));
}

}  // namespace trainctl::kube
