#include "kube/curl_error.h"

#include <cerrno>
#include <cstring>

#include "core/log.h"
#include "kube/curl_api.h"

namespace trainctl::kube {
namespace {

bool contains(const std::string& text, const char* needle) { return text.find(needle) != std::string::npos; }

// A fatal TLS alert from the server: seen in libcurl's trace, or named in its error text
// ("tlsv1 alert unknown ca"). With TLS 1.3 a rejected client certificate shows up only
// this way, as an error sending or reading after the handshake.
bool is_tls_alert(const TransportFailure& f) { return f.tls_alert >= 0 || contains(f.detail, " alert "); }

bool is_certificate_alert(int description) {
  switch (description) {
    case 42:   // bad_certificate
    case 43:   // unsupported_certificate
    case 44:   // certificate_revoked
    case 45:   // certificate_expired
    case 46:   // certificate_unknown
    case 48:   // unknown_ca
    case 49:   // access_denied
    case 116:  // certificate_required
      return true;
    default:
      return false;
  }
}

std::string alert_text(const TransportFailure& f) {
  return f.tls_alert >= 0 ? "TLS alert: " + tls_alert_name(f.tls_alert) : log::redact(f.detail);
}

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

std::string tls_alert_name(int description) {
  switch (description) {
    case 0: return "close notify";
    case 10: return "unexpected message";
    case 20: return "bad record mac";
    case 40: return "handshake failure";
    case 42: return "bad certificate";
    case 43: return "unsupported certificate";
    case 44: return "certificate revoked";
    case 45: return "certificate expired";
    case 46: return "certificate unknown";
    case 47: return "illegal parameter";
    case 48: return "unknown CA";
    case 49: return "access denied";
    case 50: return "decode error";
    case 51: return "decrypt error";
    case 70: return "protocol version";
    case 71: return "insufficient security";
    case 80: return "internal error";
    case 112: return "unrecognized name";
    case 116: return "certificate required";
    case 120: return "no application protocol";
    default: return "alert " + std::to_string(description);
  }
}

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
      if (f.tls_alert >= 0) return is_certificate_alert(f.tls_alert);
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
  const bool reached = !never_reached_server(f);
  switch (f.code) {
    case CURLE_COULDNT_CONNECT:
      return TransportError("cannot connect to " + where + ": " + connect_reason(f), ExitCode::Error,
                            reached);
    case CURLE_COULDNT_RESOLVE_HOST:
      return TransportError(
          with_detail("cannot connect to " + where + ": the host name does not resolve", f.detail),
          ExitCode::Error, reached);
    case CURLE_COULDNT_RESOLVE_PROXY:
      return TransportError(
          with_detail("cannot connect to " + where + ": the proxy's host name does not resolve", f.detail),
          ExitCode::Error, reached);
    case CURLE_OPERATION_TIMEDOUT:
      if (!f.connected)
        return TransportError("cannot connect to " + where + ": connection timed out", ExitCode::Error,
                              false);
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
    const std::string what = f.sent_client_cert
                                 ? "the server did not accept the client certificate of the kubeconfig"
                                 : "the server requires a client certificate and the kubeconfig gives none";
    return TransportError(with_detail("the TLS connection to " + where + " failed: " + what, alert_text(f)),
                          ExitCode::Auth);
  }
  // A server that asked for a client certificate and got none may have refused the
  // connection for that (with TLS 1.3 its alert can be lost when the connection is torn
  // down first). kube-apiserver asks every client for an optional one, so this is only a
  // possible cause: the hint says so.
  const std::string hint = f.client_cert_requested && !f.sent_client_cert
                               ? "; the server asked for a client certificate and the kubeconfig gives none "
                                 "(the cause if the server requires one)"
                               : "";
  if (f.code == CURLE_SSL_CONNECT_ERROR || is_tls_alert(f)) {
    return TransportError(with_detail("the TLS handshake with " + where + " failed", alert_text(f)) + hint);
  }
  if (f.code == CURLE_RECV_ERROR || f.code == CURLE_SEND_ERROR || f.code == CURLE_GOT_NOTHING ||
      f.code == CURLE_PARTIAL_FILE) {
    return TransportError(with_detail("the connection to " + where + " was closed before the answer was complete",
                                      f.detail) +
                          hint);
  }
  return TransportError(with_detail("the request to " + f.url + " failed: " + curl_api().easy_strerror(f.code), f.detail));
}

}  // namespace trainctl::kube
