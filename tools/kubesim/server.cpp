// httplib server set-up: TLS with optional client certificates, auth, fault injection,
// the admin endpoint and dispatch to the REST API.
#include "kubesim/server.h"

#include "kubesim/connection_pool.h"
#include "kubesim/request_body.h"
#include "kubesim/response_gzip.h"
#include "kubesim/rest.h"
#include "kubesim/server_auth.h"
#include "kubesim/watch.h"

#include "core/file.h"

#include <openssl/pem.h>
#include <openssl/ssl.h>

#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <algorithm>
#include <iostream>

namespace kubesim {

struct Server::Http {
  std::unique_ptr<httplib::Server> server;
  std::unique_ptr<Api> api;
  uint64_t log_watch = 0;
};

namespace {

X509* pem_cert(const std::string& pem) {
  BIO* b = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
  X509* c = PEM_read_bio_X509(b, nullptr, nullptr, nullptr);
  BIO_free(b);
  return c;
}

EVP_PKEY* pem_key(const std::string& pem) {
  BIO* b = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
  EVP_PKEY* k = PEM_read_bio_PrivateKey(b, nullptr, nullptr, nullptr);
  BIO_free(b);
  return k;
}

// cpp-httplib listens with a backlog of 5 (compiled into Debian's libcpp-httplib): a client
// opening several connections at once then loses SYNs to a full accept queue and waits for
// the kernel's one-second SYN retransmit. Listening again on the same socket raises the
// backlog; the socket is found among the open descriptors by its port.
void raise_listen_backlog(int port) {
  for (int fd = 3; fd < 4096; ++fd) {
    struct stat st {};
    if (fstat(fd, &st) != 0 || !S_ISSOCK(st.st_mode)) continue;
    int listening = 0;
    socklen_t len = sizeof listening;
    if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &len) != 0 || !listening) continue;
    sockaddr_storage addr{};
    socklen_t alen = sizeof addr;
    if (getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &alen) != 0) continue;
    int bound = 0;
    if (addr.ss_family == AF_INET) bound = ntohs(reinterpret_cast<sockaddr_in*>(&addr)->sin_port);
    if (addr.ss_family == AF_INET6) bound = ntohs(reinterpret_cast<sockaddr_in6*>(&addr)->sin6_port);
    if (bound == port) ::listen(fd, 1024);
  }
}

}  // namespace

Server::Server(Store& store, LogStore& logs, ServerOptions options)
    : m_store(store), m_logs(logs), m_opts(std::move(options)), m_http(std::make_unique<Http>()) {
  if (!m_opts.ca_cert_file.empty()) {
    m_ca.cert_pem = trainctl::read_file(m_opts.ca_cert_file);
    if (!m_opts.ca_key_file.empty()) m_ca.key_pem = trainctl::read_file(m_opts.ca_key_file);
  } else {
    m_ca = make_ca("kubesim-ca");
  }
  if (!m_opts.cert_file.empty()) {
    m_server_cert.cert_pem = trainctl::read_file(m_opts.cert_file);
    m_server_cert.key_pem = trainctl::read_file(m_opts.key_file);
  } else if (m_opts.tls) {
    m_server_cert = make_server_cert(m_ca, {"127.0.0.1", "localhost", "::1"});
  }
  m_http->api = std::make_unique<Api>(m_store, m_logs, m_opts.validator, m_opts.bookmark_interval);
  m_http->api->set_version_info(m_opts.kubernetes_version.info());
  m_http->api->set_kueue(m_opts.kueue);
  // Pods that go away take their logs with them (log followers end).
  const ResourceType* pods = m_store.find("", "v1", "pods");
  m_http->log_watch = m_store.watch(pods, [this](const WatchEvent& ev) {
    if (ev.type == EventType::Deleted)
      m_logs.remove_pod((*ev.object)["metadata"].value("namespace", ""), (*ev.object)["metadata"].value("name", ""));
    return true;
  });
}

Server::~Server() {
  stop();
  m_store.unwatch(m_http->log_watch);
}

CertKey Server::client_cert(const std::string& user, const std::vector<std::string>& groups) const {
  return make_client_cert(m_ca, user, groups);
}

std::string Server::url() const {
  std::string host = m_opts.listen.find(':') != std::string::npos ? "[" + m_opts.listen + "]" : m_opts.listen;
  return std::string(m_opts.tls ? "https" : "http") + "://" + host + ":" + std::to_string(m_port);
}

void Server::start() {
  if (m_opts.tls) {
    std::string cert = m_server_cert.cert_pem, key = m_server_cert.key_pem, ca = m_ca.cert_pem;
    m_http->server = std::make_unique<httplib::SSLServer>([cert, key, ca](SSL_CTX& ctx) {
      X509* c = pem_cert(cert);
      EVP_PKEY* k = pem_key(key);
      X509* cac = pem_cert(ca);
      bool ok = c && k && cac && SSL_CTX_use_certificate(&ctx, c) == 1 && SSL_CTX_use_PrivateKey(&ctx, k) == 1;
      if (ok) {
        X509_STORE_add_cert(SSL_CTX_get_cert_store(&ctx), cac);
        SSL_CTX_add_client_CA(&ctx, cac);
        SSL_CTX_set_verify(&ctx, SSL_VERIFY_PEER, nullptr);  // client certificates optional
        // Needed with SSL_VERIFY_PEER for clients to resume TLS sessions (libcurl does,
        // across its parallel connections); without it OpenSSL fails the handshake.
        static const unsigned char sid_ctx[] = "kubesim";
        SSL_CTX_set_session_id_context(&ctx, sid_ctx, sizeof sid_ctx - 1);
        SSL_CTX_set_min_proto_version(&ctx, TLS1_2_VERSION);
      }
      X509_free(c);
      EVP_PKEY_free(k);
      X509_free(cac);
      return ok;
    });
  } else {
    m_http->server = std::make_unique<httplib::Server>();
  }
  auto& srv = *m_http->server;
  if (!srv.is_valid()) throw std::runtime_error("kubesim: cannot set up the TLS server");
  // A thread per connection, so that open watches and log streams never hold up the
  // requests after them (connection_pool.h).
  const size_t idle_threads = static_cast<size_t>(std::max(1, m_opts.threads));
  srv.new_task_queue = [idle_threads] { return new ConnectionPool(idle_threads); };
  // Without TCP_NODELAY a response written as headers, then body (two TLS records) waits for
  // the client's delayed ACK of the first (~40 ms) before the rest leaves: every page of a
  // paged list paid that once. Accepted sockets inherit the option from the listener.
  srv.set_tcp_nodelay(true);
  srv.set_keep_alive_timeout(30);
  srv.set_keep_alive_max_count(1000);
  srv.set_read_timeout(30);
  srv.set_write_timeout(30);
  // kube-apiserver's MaxRequestBodyBytes (request_body.h): httplib answers a Content-Length
  // over it with 413 before any handler runs, with_limited_body a chunked body over it.
  srv.set_payload_max_length(kMaxRequestBodyBytes);
  auto fail = [](const httplib::Request& req, httplib::Response& res, const StatusError& e) {
    send_status(res, e);
    encode_response(req, res);
  };
  auto handler = [this](const httplib::Request& req, httplib::Response& res) {
    try {
      dispatch(*this, *m_http->api, m_opts, req, res);
    } catch (const StatusError& e) {
      send_status(res, e);
    } catch (const std::exception& e) {
      send_status(res, StatusError(500, "InternalError", std::string("Internal error occurred: ") + e.what()));
    }
    encode_response(req, res);
  };
  auto with_body = with_limited_body(kMaxRequestBodyBytes, handler, fail);
  srv.Get(".*", handler);
  srv.Post(".*", with_body);
  srv.Put(".*", with_body);
  srv.Patch(".*", with_body);
  srv.Delete(".*", with_body);
  srv.Options(".*", handler);
  srv.set_error_handler([](const httplib::Request&, httplib::Response& res) {
    if (!res.body.empty()) return;
    if (res.status == 413) send_status(res, request_entity_too_large(kMaxRequestBodyBytes));
    else send_status(res, StatusError(res.status, fault_reason(res.status), fault_reason(res.status)));
  });
  m_port = m_opts.port == 0 ? srv.bind_to_any_port(m_opts.listen) : (srv.bind_to_port(m_opts.listen, m_opts.port) ? m_opts.port : -1);
  if (m_port <= 0) throw std::runtime_error("kubesim: cannot listen on " + m_opts.listen + ":" + std::to_string(m_opts.port));
  raise_listen_backlog(m_port);
  m_thread = std::thread([this] { m_http->server->listen_after_bind(); });
  while (!srv.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

void Server::stop() {
  if (m_http->api) m_http->api->stop();
  if (m_http->server) m_http->server->stop();
  if (m_thread.joinable()) m_thread.join();
}

}  // namespace kubesim
