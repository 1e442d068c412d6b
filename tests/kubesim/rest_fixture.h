// A kubesim server started in-process on 127.0.0.1:0 over TLS, and HTTPS clients for it
// that verify the server against kubesim's CA.
#pragma once

#include "kubesim/logs.h"
#include "kubesim/server.h"
#include "kubesim/store.h"

#include <catch2/catch.hpp>
#include <httplib.h>
#include <openssl/pem.h>
#include <zlib.h>

#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>

namespace kubesim::testing {

inline constexpr const char* kJson = "application/json";

inline X509* pem_to_cert(const std::string& pem) {
  BIO* b = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
  X509* c = PEM_read_bio_X509(b, nullptr, nullptr, nullptr);
  BIO_free(b);
  return c;
}

// Makes the client verify the server's certificate against the CA in `ca_pem`, and only it.
inline void trust_ca(httplib::SSLClient& c, const std::string& ca_pem) {
  X509_STORE* st = X509_STORE_new();
  X509* ca = pem_to_cert(ca_pem);
  X509_STORE_add_cert(st, ca);
  X509_free(ca);
  c.set_ca_cert_store(st);
  c.enable_server_certificate_verification(true);
}

inline EVP_PKEY* pem_to_key(const std::string& pem) {
  BIO* b = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
  EVP_PKEY* k = PEM_read_bio_PrivateKey(b, nullptr, nullptr, nullptr);
  BIO_free(b);
  return k;
}

struct SimServer {
  Store store;
  LogStore logs;
  std::unique_ptr<Server> server;
  std::string token = "test-token-0123456789";

  explicit SimServer(Validator validator = nullptr, ServerOptions o = {}) {
    o.port = 0;
    o.tokens = {token};
    o.threads = 16;
    o.validator = std::move(validator);
    server = std::make_unique<Server>(store, logs, o);
    server->start();
  }
  ~SimServer() { server->stop(); }

  // A client trusting kubesim's CA; with_token adds the bearer token to every request.
  std::unique_ptr<httplib::SSLClient> client(bool with_token = true, const CertKey* client_cert = nullptr) {
    std::unique_ptr<httplib::SSLClient> c;
    if (client_cert) {
      X509* cert = pem_to_cert(client_cert->cert_pem);
      EVP_PKEY* key = pem_to_key(client_cert->key_pem);
      c = std::make_unique<httplib::SSLClient>("127.0.0.1", server->port(), cert, key);
      X509_free(cert);
      EVP_PKEY_free(key);
    } else {
      c = std::make_unique<httplib::SSLClient>("127.0.0.1", server->port());
    }
    trust_ca(*c, server->ca().cert_pem);
    if (with_token) c->set_bearer_token_auth(token.c_str());
    c->set_read_timeout(10, 0);
    return c;
  }
};

inline nlohmann::json body_json(const httplib::Result& r) { return nlohmann::json::parse(r->body); }

// A gzip-encoded body, decoded.
inline std::string gunzip(const std::string& in) {
  z_stream zs{};
  REQUIRE(inflateInit2(&zs, 15 + 16) == Z_OK);
  std::string out;
  char buf[65536];
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  int rc;
  do {
    zs.next_out = reinterpret_cast<Bytef*>(buf);
    zs.avail_out = sizeof buf;
    rc = inflate(&zs, Z_NO_FLUSH);
    out.append(buf, sizeof buf - zs.avail_out);
  } while (rc == Z_OK);
  inflateEnd(&zs);
  REQUIRE(rc == Z_STREAM_END);
  return out;
}

// n pods p000, p001, ... in default, each with a 2 KB annotation: 64 of them make a list
// over kubesim's 128 KiB gzip threshold.
inline void add_padded_pods(SimServer& sim, int n) {
  const auto* pods = sim.store.find("", "v1", "pods");
  for (int i = 0; i < n; ++i) {
    char name[16];
    std::snprintf(name, sizeof name, "p%03d", i);
    sim.store.create(*pods, nlohmann::json{{"apiVersion", "v1"},
                                           {"kind", "Pod"},
                                           {"metadata", {{"name", name}, {"annotations", {{"pad", std::string(2048, 'x')}}}}},
                                           {"spec", {{"containers", {{{"name", "c"}, {"image", "busybox"}}}}}}});
  }
}


}  // namespace kubesim::testing
