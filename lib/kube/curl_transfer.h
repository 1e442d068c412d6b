// One attempt of one request over libcurl: builds the easy handle from the client's fixed
// settings, the request and the current credentials, and collects status, headers and body
// (or hands the body to stream() in blocks of whole lines).
#pragma once

#include <chrono>
#include <exception>
#include <string>
#include <vector>

#include "kube/client.h"
#include "kube/curl_client.h"
#include "kube/curl_error.h"
#include "kube/curl_holder.h"
#include "kube/http_auth.h"

namespace trainctl::kube {

// What every transfer of one client has in common, computed once from the RestConfig.
struct ClientSettings {
  std::string server;                   // as configured, without a trailing slash
  std::string url_base;                 // server, with the host replaced by tls_server_name
  std::vector<std::string> connect_to;  // CURLOPT_CONNECT_TO entries for tls_server_name
  std::string ca_pem;
  bool insecure = false;
  std::string proxy_url;
  std::string no_proxy;
  std::string user_agent;
  std::chrono::milliseconds connect_timeout{0};
  std::chrono::milliseconds request_timeout{0};
  size_t max_answer_bytes = 0;  // 0: no limit
  TlsContext tls;
};

ClientSettings make_client_settings(const RestConfig& config, const ClientOptions& options);

class Transfer {
public:
  // on_block non-null: a stream; 2xx bodies are delivered in blocks of whole lines as they
  // arrive (BlockHandler in kube/client.h), no request timeout.
  Transfer(const ClientSettings& settings, const Request& request, const AuthMaterial& auth, CURLSH* share,
           const BlockHandler* on_block = nullptr);
  Transfer(const Transfer&) = delete;
  Transfer& operator=(const Transfer&) = delete;

  CURL* handle() const { return m_curl.get(); }
  const std::string& url() const { return m_url; }

  // Replaces the time limit of a request that is not a stream (what is left of its deadline).
  void set_timeout(std::chrono::milliseconds timeout);

  // Records the transfer's outcome; call once, after curl_easy_perform or CURLMSG_DONE.
  void finish(CURLcode code);

  // True when an HTTP answer arrived (any status); false on a transport failure. A stream
  // stopped by its handler counts as answered.
  bool answered() const;
  Response& response() { return m_response; }
  TransportFailure failure() const;
  std::chrono::milliseconds elapsed() const { return m_elapsed; }
  bool lines_delivered() const { return m_lines_delivered; }
  // Lines were handed over since the handler was last told the stream went quiet.
  bool unflushed() const { return m_unflushed; }
  // Tells the handler the stream went quiet (an empty block); false when it said stop.
  bool quiet();
  // Once a stream's 2xx answer is flowing: stops libcurl's trace, which is read only for
  // TLS alerts during the handshake and otherwise costs a formatted message per TLS record.
  void end_trace_when_streaming();
  // An exception the line handler threw, or the Error of an answer (or a line) larger than
  // max_answer_bytes: the transfer was stopped.
  std::exception_ptr handler_error() const { return m_handler_error; }

private:
  static size_t on_header(char* data, size_t size, size_t count, void* self);
  static size_t on_body(char* data, size_t size, size_t count, void* self);
  static int on_debug(CURL* handle, curl_infotype type, char* data, size_t size, void* self);
  size_t body_chunk(const char* data, size_t size);
  bool deliver(std::string_view lines);
  // Stops the transfer for holding more than max_answer_bytes (what: "an answer", "a line").
  size_t too_large(const char* what);

  CurlHolder m_curl;
  const ClientSettings& m_settings;
  const BlockHandler* m_on_block;
  std::string m_url;
  std::string m_method;
  Response m_response;
  CURLcode m_code = CURLE_OK;
  long m_os_errno = 0;
  bool m_connected = false;
  std::string m_error_text;
  int m_tls_alert = -1;  // the fatal TLS alert the server sent, if any
  bool m_sent_client_cert = false;
  bool m_cert_requested = false;  // the server's handshake asked for a client certificate
  std::chrono::steady_clock::time_point m_started;
  std::chrono::milliseconds m_elapsed{0};
  // stream state
  bool m_status_checked = false;
  bool m_streaming = false;  // 2xx stream: body goes to lines, not m_response.body
  bool m_stopped = false;
  bool m_lines_delivered = false;
  bool m_unflushed = false;
  bool m_trace_ended = false;
  std::string m_pending;  // the start of a line whose end has not arrived yet
  std::exception_ptr m_handler_error;
};

}  // namespace trainctl::kube
