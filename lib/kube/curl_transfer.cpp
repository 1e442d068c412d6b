#include "kube/curl_transfer.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdlib>
#include <cstring>

#include "core/errors.h"
#include "core/log.h"
#include "core/text.h"
#include "core/version.h"
#include "kube/curl_api.h"

namespace trainctl::kube {
namespace {

// Splits the server URL to apply tls_server_name; returns {url_base, connect_to entries}.
std::pair<std::string, std::vector<std::string>> with_server_name(const std::string& server,
                                                                  const std::string& name) {
  CURLU* url = curl_api().url();
  if (url == nullptr) throw TransportError("out of memory parsing the server URL");
  std::unique_ptr<CURLU, void (*)(CURLU*)> guard(url, curl_api().url_cleanup);
  if (curl_api().url_set(url, CURLUPART_URL, server.c_str(), 0) != CURLUE_OK) {
    throw ConfigError("the server URL \"" + server + "\" is not a valid URL");
  }
  char* host = nullptr;
  char* port = nullptr;
  curl_api().url_get(url, CURLUPART_HOST, &host, 0);
  curl_api().url_get(url, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT);
  const std::string host_text = host ? host : "";
  const std::string port_text = port ? port : "443";
  curl_api().free(host);
  curl_api().free(port);
  curl_api().url_set(url, CURLUPART_HOST, name.c_str(), 0);
  curl_api().url_set(url, CURLUPART_PORT, port_text.c_str(), 0);
  char* rewritten = nullptr;
  curl_api().url_get(url, CURLUPART_URL, &rewritten, 0);
  std::string base = rewritten ? rewritten : server;
  curl_api().free(rewritten);
  while (!base.empty() && base.back() == '/') base.pop_back();
  return {base, {name + ":" + port_text + ":" + host_text + ":" + port_text}};
}

std::string loopback_no_proxy() {
  const char* env = std::getenv("NO_PROXY");
  if (env == nullptr) env = std::getenv("no_proxy");
  std::string value = env ? env : "";
  if (trim(value) == "*") return "*";
  if (!value.empty()) value += ",";
  return value + "localhost,127.0.0.1,::1";
}

void warn_insecure_once(const std::string& server) {
  static std::atomic<bool> warned{false};
  if (!warned.exchange(true)) {
    log::warn("TLS verification is off for {}: the kubeconfig sets insecure-skip-tls-verify", server);
  }
}

// kubectl sends a kubeconfig's credentials to an http:// server as it would over TLS, without
// a word; so does trainctl, with a warning: they cross the network readable by anyone on it.
void warn_cleartext_once(const RestConfig& config) {
  static std::atomic<bool> warned{false};
  const bool credentials = !config.bearer_token.empty() || !config.token_file.empty() ||
                           !config.username.empty() || !config.password.empty() || config.exec.has_value();
  if (!credentials || ascii_lower(config.server).rfind("http://", 0) != 0 || warned.exchange(true)) return;
  log::warn("the kubeconfig sends credentials to {} in clear text: the server URL is http://, not https://",
            config.server);
}

void set_blob(CURL* curl, CURLoption option, const std::string& pem) {
  curl_blob blob{const_cast<char*>(pem.data()), pem.size(), CURL_BLOB_COPY};
  curl_api().easy_setopt(curl, option, &blob);
}

}  // namespace

ClientSettings make_client_settings(const RestConfig& config, const ClientOptions& options) {
  ClientSettings s;
  s.server = config.server;
  while (!s.server.empty() && s.server.back() == '/') s.server.pop_back();
  if (s.server.empty()) throw ConfigError("the kubeconfig names no server to connect to");
  s.url_base = s.server;
  if (!config.tls_server_name.empty()) {
    auto [base, entries] = with_server_name(s.server, config.tls_server_name);
    s.url_base = std::move(base);
    s.connect_to = std::move(entries);
  }
  s.ca_pem = config.ca_pem;
  s.insecure = config.insecure_skip_tls_verify;
  s.proxy_url = config.proxy_url;
  s.no_proxy = config.proxy_url.empty() ? loopback_no_proxy() : std::string();
  s.user_agent = options.user_agent.empty() ? "trainctl/" + version_info().version : options.user_agent;
  s.connect_timeout = options.connect_timeout;
  s.request_timeout = options.request_timeout;
  s.max_answer_bytes = options.max_answer_bytes;
  s.tls = TlsContext{!config.ca_pem.empty(), config.cluster_name, config.source};
  if (s.insecure) warn_insecure_once(s.server);
  warn_cleartext_once(config);
  return s;
}

Transfer::Transfer(const ClientSettings& settings, const Request& request, const AuthMaterial& auth,
                   CURLSH* share, const BlockHandler* on_block)
    : m_settings(settings),
      m_on_block(on_block),
      m_url(settings.url_base + request.path),
      m_method(request.method) {
  if (on_block == nullptr && request.expected_bytes > 0) m_response.body.reserve(request.expected_bytes);
  CURL* c = m_curl.get();
  curl_api().easy_setopt(c, CURLOPT_URL, m_url.c_str());
  curl_api().easy_setopt(c, CURLOPT_PROTOCOLS_STR, "https,http");
  curl_api().easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_api().easy_setopt(c, CURLOPT_TCP_KEEPALIVE, 1L);
  curl_api().easy_setopt(c, CURLOPT_HTTP_VERSION, static_cast<long>(CURL_HTTP_VERSION_2TLS));
  curl_api().easy_setopt(c, CURLOPT_PIPEWAIT, 1L);
  // gzip for ordinary answers, as client-go asks. Not "" (every encoding libcurl knows):
  // that offers br, which servers may compress at brotli's slowest quality (cpp-httplib:
  // 1.6 s instead of 0.05 s for a 780 KB pod list). A stream asks for none: a compressor on
  // the way holds lines back until its buffer fills, which would stall watches and log follows.
  if (on_block == nullptr) curl_api().easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "gzip");
  curl_api().easy_setopt(c, CURLOPT_USERAGENT, settings.user_agent.c_str());
  if (share != nullptr) curl_api().easy_setopt(c, CURLOPT_SHARE, share);
  if (settings.connect_timeout.count() > 0) {
    curl_api().easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(settings.connect_timeout.count()));
  }
  const auto timeout = request.timeout.value_or(settings.request_timeout);
  if (on_block == nullptr && timeout.count() > 0) {
    curl_api().easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(timeout.count()));
  } else if (request.finite && timeout.count() > 0) {
    // Fewer than 1 byte a second for that long: stalled.
    curl_api().easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_api().easy_setopt(c, CURLOPT_LOW_SPEED_TIME, static_cast<long>((timeout.count() + 999) / 1000));
  }

  // TLS
  if (settings.insecure) {
    curl_api().easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 0L);
    curl_api().easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 0L);
  } else if (!settings.ca_pem.empty()) {
    set_blob(c, CURLOPT_CAINFO_BLOB, settings.ca_pem);
    curl_api().easy_setopt(c, CURLOPT_CAPATH, nullptr);  // only the kubeconfig's CA is trusted
  }
  if (!settings.connect_to.empty()) m_curl.set_connect_to(settings.connect_to);
  if (!auth.client_cert_pem.empty() && !auth.client_key_pem.empty()) {
    m_sent_client_cert = true;
    set_blob(c, CURLOPT_SSLCERT_BLOB, auth.client_cert_pem);
    curl_api().easy_setopt(c, CURLOPT_SSLCERTTYPE, "PEM");
    set_blob(c, CURLOPT_SSLKEY_BLOB, auth.client_key_pem);
    curl_api().easy_setopt(c, CURLOPT_SSLKEYTYPE, "PEM");
  }
  if (!settings.proxy_url.empty()) curl_api().easy_setopt(c, CURLOPT_PROXY, settings.proxy_url.c_str());
  curl_api().easy_setopt(c, CURLOPT_NOPROXY, settings.no_proxy.c_str());
  curl_api().easy_setopt(c, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1L);

  // Method and body
  const std::string& method = request.method;
  const bool sends_body = !request.body.empty() || method == "POST" || method == "PUT" || method == "PATCH";
  if (method == "HEAD") {
    curl_api().easy_setopt(c, CURLOPT_NOBODY, 1L);
  } else if (sends_body) {
    curl_api().easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
    curl_api().easy_setopt(c, CURLOPT_COPYPOSTFIELDS, request.body.c_str());
    if (method != "POST") curl_api().easy_setopt(c, CURLOPT_CUSTOMREQUEST, method.c_str());
  } else if (method != "GET") {
    curl_api().easy_setopt(c, CURLOPT_CUSTOMREQUEST, method.c_str());
  }

  // Headers. Authorization values never leave this function except to libcurl.
  std::vector<std::string> headers;
  headers.push_back("Accept: " + request.accept);
  if (sends_body) headers.push_back("Content-Type: " + request.content_type);
  headers.emplace_back("Expect:");
  if (!auth.bearer_token.empty()) {
    headers.push_back("Authorization: Bearer " + auth.bearer_token);
  } else if (!auth.username.empty() || !auth.password.empty()) {
    curl_api().easy_setopt(c, CURLOPT_HTTPAUTH, static_cast<long>(CURLAUTH_BASIC));
    curl_api().easy_setopt(c, CURLOPT_USERNAME, auth.username.c_str());
    curl_api().easy_setopt(c, CURLOPT_PASSWORD, auth.password.c_str());
  }
  m_curl.set_headers(headers);

  curl_api().easy_setopt(c, CURLOPT_HEADERFUNCTION, &Transfer::on_header);
  curl_api().easy_setopt(c, CURLOPT_HEADERDATA, this);
  curl_api().easy_setopt(c, CURLOPT_WRITEFUNCTION, &Transfer::on_body);
  curl_api().easy_setopt(c, CURLOPT_WRITEDATA, this);
  curl_api().easy_setopt(c, CURLOPT_PRIVATE, this);
  // libcurl's trace is read only for the TLS alerts a server sends (with TLS 1.3 a rejected
  // client certificate shows up only as an alert after the handshake). Headers and data
  // are never looked at: they carry credentials.
  curl_api().easy_setopt(c, CURLOPT_DEBUGFUNCTION, &Transfer::on_debug);
  curl_api().easy_setopt(c, CURLOPT_DEBUGDATA, this);
  curl_api().easy_setopt(c, CURLOPT_VERBOSE, 1L);
  m_started = std::chrono::steady_clock::now();
}

void Transfer::set_timeout(std::chrono::milliseconds timeout) {
  if (m_on_block != nullptr) return;
  curl_api().easy_setopt(m_curl.get(), CURLOPT_TIMEOUT_MS,
                         static_cast<long>(std::max<long long>(timeout.count(), 1)));
}

size_t Transfer::on_header(char* data, size_t size, size_t count, void* self) {
  auto* t = static_cast<Transfer*>(self);
  const std::string_view line(data, size * count);
  if (line.rfind("HTTP/", 0) == 0) {
    t->m_response.headers.clear();  // a new status line: 1xx answers or a redirect before
  } else if (auto colon = line.find(':'); colon != std::string_view::npos) {
    std::string name = ascii_lower(trim(line.substr(0, colon)));
    std::string value = trim(line.substr(colon + 1));
    if (name == "content-length" && t->m_on_block == nullptr) {
      // The whole body is kept: refuse one too large before reading it, else make room for
      // it once (a body grown by doubling holds up to twice its size while it is copied),
      // with the 64 bytes simdjson reads past the end (page_stream.cpp would copy it for them).
      char* end = nullptr;
      const unsigned long long length = std::strtoull(value.c_str(), &end, 10);
      const size_t max = t->m_settings.max_answer_bytes;
      if (max > 0 && length > max) return t->too_large("an answer");
      if (end != value.c_str() && length > 0 && length <= (max > 0 ? max : size_t{1} << 30))
        t->m_response.body.reserve(static_cast<size_t>(length) + 64);
    }
    auto [it, inserted] = t->m_response.headers.emplace(name, value);
    if (!inserted) it->second += ", " + value;
  }
  return size * count;
}

size_t Transfer::too_large(const char* what) {
  const size_t max = m_settings.max_answer_bytes;
  m_handler_error = std::make_exception_ptr(
      Error("the server's answer to " + m_method + " " + m_url + " holds " + what + " larger than " +
            std::to_string(max >> 20) + " MiB, the most trainctl reads at once; it was not read"));
  m_stopped = true;
  m_response.body.clear();
  m_response.body.shrink_to_fit();
  m_pending.clear();
  m_pending.shrink_to_fit();
  return 0;  // libcurl stops the transfer
}

int Transfer::on_debug(CURL*, curl_infotype type, char* data, size_t size, void* self) {
  if (type != CURLINFO_TEXT) return 0;
  const std::string_view text(data, size);
  if (text.find("(IN), TLS handshake, Request CERT") != std::string_view::npos) {
    static_cast<Transfer*>(self)->m_cert_requested = true;
    return 0;
  }
  // "TLSv1.3 (IN), TLS alert, unknown (628):" where 628 = level << 8 | description.
  const auto at = text.find("(IN), TLS alert");
  if (at == std::string_view::npos) return 0;
  const auto open = text.rfind('(');
  if (open == std::string_view::npos || open <= at) return 0;
  const int value = std::atoi(std::string(text.substr(open + 1)).c_str());
  if ((value >> 8) == 2) static_cast<Transfer*>(self)->m_tls_alert = value & 0xff;  // fatal alerts only
  return 0;
}

size_t Transfer::on_body(char* data, size_t size, size_t count, void* self) {
  return static_cast<Transfer*>(self)->body_chunk(data, size * count);
}

size_t Transfer::body_chunk(const char* data, size_t size) {
  const size_t max = m_settings.max_answer_bytes;
  if (m_on_block == nullptr) {
    if (max > 0 && m_response.body.size() + size > max) return too_large("an answer");
    m_response.body.append(data, size);
    return size;
  }
  if (!m_status_checked) {
    m_status_checked = true;
    long status = 0;
    curl_api().easy_getinfo(m_curl.get(), CURLINFO_RESPONSE_CODE, &status);
    m_streaming = status >= 200 && status < 300;
  }
  if (!m_streaming) {
    if (max > 0 && m_response.body.size() + size > max) return too_large("an answer");
    m_response.body.append(data, size);  // an error body, read whole for the ApiError
    return size;
  }
  // Whole lines go to the handler straight from libcurl's buffer; only a line cut by the
  // chunk boundary is copied, to be completed by the next chunk.
  const auto* last = static_cast<const char*>(memrchr(data, '\n', size));
  if (last == nullptr) {
    if (max > 0 && m_pending.size() + size > max) return too_large("a line");
    m_pending.append(data, size);
    return size;
  }
  const size_t whole = static_cast<size_t>(last - data) + 1;
  bool go_on = true;
  if (m_pending.empty()) {
    go_on = deliver(std::string_view(data, whole));
  } else {
    const auto* first = static_cast<const char*>(memchr(data, '\n', size));
    if (max > 0 && m_pending.size() + static_cast<size_t>(first - data) > max) return too_large("a line");
    m_pending.append(data, whole);
    go_on = deliver(m_pending);
    m_pending.clear();
  }
  if (!go_on) return 0;  // 0 makes libcurl stop the transfer
  if (max > 0 && size - whole > max) return too_large("a line");
  m_pending.append(data + whole, size - whole);
  return size;
}

void Transfer::end_trace_when_streaming() {
  if (m_trace_ended || !m_streaming) return;
  m_trace_ended = true;
  curl_api().easy_setopt(m_curl.get(), CURLOPT_VERBOSE, 0L);
  curl_api().easy_setopt(m_curl.get(), CURLOPT_DEBUGFUNCTION, nullptr);
}

bool Transfer::quiet() {
  m_unflushed = false;
  return m_stopped ? false : deliver(std::string_view());
}

bool Transfer::deliver(std::string_view lines) {
  m_lines_delivered = true;
  m_unflushed = !lines.empty();
  try {
    if ((*m_on_block)(lines)) return true;
  } catch (...) {
    m_handler_error = std::current_exception();
  }
  m_stopped = true;
  return false;
}

void Transfer::finish(CURLcode code) {
  m_code = code;
  m_elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - m_started);
  m_error_text = m_curl.error_text();
  curl_api().easy_getinfo(m_curl.get(), CURLINFO_RESPONSE_CODE, &m_response.status);
  curl_api().easy_getinfo(m_curl.get(), CURLINFO_OS_ERRNO, &m_os_errno);
  // Pre-transfer time is set once the connection (TCP + TLS) is ready to carry the request.
  curl_off_t pretransfer = 0;
  curl_api().easy_getinfo(m_curl.get(), CURLINFO_PRETRANSFER_TIME_T, &pretransfer);
  m_connected = pretransfer > 0 || m_response.status != 0;
  if (code == CURLE_OK && m_streaming && !m_stopped && !m_pending.empty()) {
    m_pending += '\n';  // the body ended without one
    deliver(m_pending);
    m_pending.clear();
  }
}

bool Transfer::answered() const {
  if (m_stopped) return true;
  return m_code == CURLE_OK && m_response.status != 0;
}

TransportFailure Transfer::failure() const {
  TransportFailure f;
  f.code = m_code;
  f.detail = m_error_text;
  f.os_errno = m_os_errno;
  f.connected = m_connected;
  f.url = m_url;
  f.server = m_settings.server;
  f.tls_alert = m_tls_alert;
  f.sent_client_cert = m_sent_client_cert;
  f.client_cert_requested = m_cert_requested;
  return f;
}

}  // namespace trainctl::kube
