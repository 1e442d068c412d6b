#include "support/https_server.h"

#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <chrono>
#include <stdexcept>

namespace trainctl::testing {
namespace {

X509* read_cert(BIO* bio) { return PEM_read_bio_X509(bio, nullptr, nullptr, nullptr); }

BIO* mem_bio(const std::string& text) { return BIO_new_mem_buf(text.data(), static_cast<int>(text.size())); }

}  // namespace

HttpsServer::HttpsServer(const Options& options) {
  BIO* cert_bio = mem_bio(options.identity.cert_pem);
  BIO* key_bio = mem_bio(options.identity.key_pem);
  X509* cert = read_cert(cert_bio);
  EVP_PKEY* key = PEM_read_bio_PrivateKey(key_bio, nullptr, nullptr, nullptr);
  BIO_free(cert_bio);
  BIO_free(key_bio);
  X509_STORE* client_cas = nullptr;
  if (!options.client_ca_pem.empty()) {
    client_cas = X509_STORE_new();
    BIO* ca_bio = mem_bio(options.client_ca_pem);
    while (X509* ca = read_cert(ca_bio)) {
      X509_STORE_add_cert(client_cas, ca);
      X509_free(ca);
    }
    BIO_free(ca_bio);
  }
  if (cert == nullptr || key == nullptr) {
    X509_free(cert);
    EVP_PKEY_free(key);
    X509_STORE_free(client_cas);
    throw std::runtime_error("test HTTPS server: cannot read its certificate or key");
  }
  // The SSL context takes its own references to cert and key, and owns the store.
  m_server = std::make_unique<httplib::SSLServer>(cert, key, client_cas);
  X509_free(cert);
  EVP_PKEY_free(key);
  if (!m_server->is_valid()) throw std::runtime_error("test HTTPS server: invalid TLS setup");
  if (options.max_tls12) SSL_CTX_set_max_proto_version(m_server->ssl_context(), TLS1_2_VERSION);
  m_server->set_keep_alive_max_count(100);
  m_server->set_keep_alive_timeout(2);
}

HttpsServer::~HttpsServer() { stop(); }

void HttpsServer::start() {
  m_port = m_server->bind_to_any_port("127.0.0.1");
  if (m_port <= 0) throw std::runtime_error("test HTTPS server: cannot bind 127.0.0.1");
  m_thread = std::thread([this] { m_server->listen_after_bind(); });
  while (!m_server->is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

void HttpsServer::stop() {
  if (!m_thread.joinable()) return;
  while (!m_server->is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  m_server->stop();
  m_thread.join();
}

std::string peer_common_name(const httplib::Request& request) {
  if (request.ssl == nullptr) return {};
  X509* peer = SSL_get1_peer_certificate(request.ssl);
  if (peer == nullptr) return {};
  char buf[256] = {};
  X509_NAME_get_text_by_NID(X509_get_subject_name(peer), NID_commonName, buf, sizeof buf);
  X509_free(peer);
  return buf;
}

}  // namespace trainctl::testing
