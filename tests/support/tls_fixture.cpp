#include "support/tls_fixture.h"

#include <openssl/bio.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <atomic>
#include <memory>
#include <stdexcept>

namespace trainctl::testing {
namespace {

using KeyPtr = std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)>;
using CertPtr = std::unique_ptr<X509, decltype(&X509_free)>;
using BioPtr = std::unique_ptr<BIO, decltype(&BIO_free)>;

void check(bool ok, const char* what) {
  if (!ok) throw std::runtime_error(std::string("test TLS fixture: ") + what + " failed");
}

KeyPtr new_key() {
  KeyPtr key(EVP_EC_gen("P-256"), EVP_PKEY_free);
  check(key != nullptr, "EC key generation");
  return key;
}

std::string bio_text(BIO* bio) {
  char* data = nullptr;
  const long len = BIO_get_mem_data(bio, &data);
  return std::string(data, static_cast<size_t>(len));
}

std::string pem_of_key(EVP_PKEY* key) {
  BioPtr bio(BIO_new(BIO_s_mem()), BIO_free);
  check(PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr) == 1, "key PEM");
  return bio_text(bio.get());
}

std::string pem_of_cert(X509* cert) {
  BioPtr bio(BIO_new(BIO_s_mem()), BIO_free);
  check(PEM_write_bio_X509(bio.get(), cert) == 1, "certificate PEM");
  return bio_text(bio.get());
}

KeyPtr parse_key(const std::string& pem) {
  BioPtr bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())), BIO_free);
  KeyPtr key(PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr), EVP_PKEY_free);
  check(key != nullptr, "reading the CA key");
  return key;
}

CertPtr parse_cert(const std::string& pem) {
  BioPtr bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())), BIO_free);
  CertPtr cert(PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr), X509_free);
  check(cert != nullptr, "reading the CA certificate");
  return cert;
}

void add_ext(X509* cert, X509* issuer, int nid, const std::string& value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
  X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str());
  check(ext != nullptr, "certificate extension");
  X509_add_ext(cert, ext, -1);
  X509_EXTENSION_free(ext);
}

// A certificate for `key` with this subject, signed by issuer_key (self-signed when
// issuer is null).
CertPtr make_cert(EVP_PKEY* key, X509_NAME* subject, X509* issuer, EVP_PKEY* issuer_key) {
  static std::atomic<long> serial{1000};
  CertPtr cert(X509_new(), X509_free);
  check(cert != nullptr, "X509_new");
  X509_set_version(cert.get(), 2);
  ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), serial++);
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), 7L * 24 * 3600);
  X509_set_pubkey(cert.get(), key);
  X509_set_subject_name(cert.get(), subject);
  X509_set_issuer_name(cert.get(), issuer ? X509_get_subject_name(issuer) : subject);
  return cert;
}

X509_NAME* new_name(const std::string& cn, const std::vector<std::string>& orgs = {}) {
  X509_NAME* name = X509_NAME_new();
  for (const auto& o : orgs) {
    X509_NAME_add_entry_by_txt(name, "O", MBSTRING_UTF8, reinterpret_cast<const unsigned char*>(o.c_str()), -1,
                               -1, 0);
  }
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, reinterpret_cast<const unsigned char*>(cn.c_str()), -1,
                             -1, 0);
  return name;
}

CertAndKey issue(const CertAndKey& ca, const std::string& cn, const std::vector<std::string>& orgs,
                 const std::string& san, const char* usage) {
  KeyPtr ca_key = parse_key(ca.key_pem);
  CertPtr ca_cert = parse_cert(ca.cert_pem);
  KeyPtr key = new_key();
  X509_NAME* name = new_name(cn, orgs);
  CertPtr cert = make_cert(key.get(), name, ca_cert.get(), ca_key.get());
  X509_NAME_free(name);
  add_ext(cert.get(), ca_cert.get(), NID_basic_constraints, "critical,CA:FALSE");
  add_ext(cert.get(), ca_cert.get(), NID_key_usage, "critical,digitalSignature,keyEncipherment");
  add_ext(cert.get(), ca_cert.get(), NID_ext_key_usage, usage);
  add_ext(cert.get(), ca_cert.get(), NID_authority_key_identifier, "keyid:always");
  if (!san.empty()) add_ext(cert.get(), ca_cert.get(), NID_subject_alt_name, san);
  check(X509_sign(cert.get(), ca_key.get(), EVP_sha256()) > 0, "signing a certificate");
  return {pem_of_cert(cert.get()), pem_of_key(key.get())};
}

}  // namespace

TestCa::TestCa(const std::string& common_name) {
  KeyPtr key = new_key();
  X509_NAME* name = new_name(common_name);
  CertPtr cert = make_cert(key.get(), name, nullptr, nullptr);
  X509_NAME_free(name);
  add_ext(cert.get(), cert.get(), NID_basic_constraints, "critical,CA:TRUE");
  add_ext(cert.get(), cert.get(), NID_key_usage, "critical,keyCertSign,cRLSign,digitalSignature");
  add_ext(cert.get(), cert.get(), NID_subject_key_identifier, "hash");
  check(X509_sign(cert.get(), key.get(), EVP_sha256()) > 0, "signing the CA");
  m_ca = {pem_of_cert(cert.get()), pem_of_key(key.get())};
}

CertAndKey TestCa::issue_server(const std::vector<std::string>& dns_names,
                                const std::vector<std::string>& ip_addresses) const {
  std::string san;
  for (const auto& d : dns_names) san += (san.empty() ? "" : ",") + std::string("DNS:") + d;
  for (const auto& ip : ip_addresses) san += (san.empty() ? "" : ",") + std::string("IP:") + ip;
  const std::string cn = dns_names.empty() ? (ip_addresses.empty() ? "server" : ip_addresses[0]) : dns_names[0];
  return issue(m_ca, cn, {}, san, "serverAuth");
}

CertAndKey TestCa::issue_client(const std::string& common_name, const std::vector<std::string>& organizations) const {
  return issue(m_ca, common_name, organizations, "", "clientAuth");
}

}  // namespace trainctl::testing
