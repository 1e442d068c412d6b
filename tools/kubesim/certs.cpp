#include "kubesim/certs.h"

#include <fcntl.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509v3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <arpa/inet.h>

#include <memory>
#include <stdexcept>

namespace kubesim {

namespace {

struct Free {
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
  void operator()(X509* p) const { X509_free(p); }
  void operator()(BIO* p) const { BIO_free(p); }
};
using KeyPtr = std::unique_ptr<EVP_PKEY, Free>;
using CertPtr = std::unique_ptr<X509, Free>;
using BioPtr = std::unique_ptr<BIO, Free>;

void check(bool ok, const char* what) {
  if (!ok) throw std::runtime_error(std::string("certificate generation failed: ") + what);
}

std::string bio_string(BIO* b) {
  char* data = nullptr;
  long n = BIO_get_mem_data(b, &data);
  return std::string(data, static_cast<size_t>(n));
}

std::string key_pem(EVP_PKEY* k) {
  BioPtr b(BIO_new(BIO_s_mem()));
  check(PEM_write_bio_PrivateKey(b.get(), k, nullptr, nullptr, 0, nullptr, nullptr) == 1, "key pem");
  return bio_string(b.get());
}

std::string cert_pem(X509* c) {
  BioPtr b(BIO_new(BIO_s_mem()));
  check(PEM_write_bio_X509(b.get(), c) == 1, "cert pem");
  return bio_string(b.get());
}

KeyPtr load_key(const std::string& pem) {
  BioPtr b(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
  KeyPtr k(PEM_read_bio_PrivateKey(b.get(), nullptr, nullptr, nullptr));
  check(k != nullptr, "load key");
  return k;
}

CertPtr load_cert(const std::string& pem) {
  BioPtr b(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
  CertPtr c(PEM_read_bio_X509(b.get(), nullptr, nullptr, nullptr));
  check(c != nullptr, "load cert");
  return c;
}

void add_ext(X509* cert, X509* issuer, int nid, const std::string& value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
  X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str());
  check(ext != nullptr, "extension");
  X509_add_ext(cert, ext, -1);
  X509_EXTENSION_free(ext);
}

CertPtr new_cert(EVP_PKEY* key, const std::string& cn, const std::vector<std::string>& orgs, long days) {
  CertPtr c(X509_new());
  X509_set_version(c.get(), 2);
  unsigned char serial[16];
  RAND_bytes(serial, sizeof serial);
  serial[0] &= 0x7f;
  BIGNUM* bn = BN_bin2bn(serial, sizeof serial, nullptr);
  BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(c.get()));
  BN_free(bn);
  X509_gmtime_adj(X509_getm_notBefore(c.get()), -3600);
  X509_gmtime_adj(X509_getm_notAfter(c.get()), days * 24 * 3600);
  X509_set_pubkey(c.get(), key);
  X509_NAME* name = X509_get_subject_name(c.get());
  for (const auto& o : orgs)
    X509_NAME_add_entry_by_txt(name, "O", MBSTRING_UTF8, reinterpret_cast<const unsigned char*>(o.c_str()), -1,
                               -1, 0);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, reinterpret_cast<const unsigned char*>(cn.c_str()), -1,
                             -1, 0);
  return c;
}

CertKey issue(const CertKey& ca, const std::string& cn, const std::vector<std::string>& orgs,
              const std::string& usage, const std::string& san) {
  KeyPtr key(EVP_EC_gen("P-256"));
  check(key != nullptr, "key");
  KeyPtr ca_key = load_key(ca.key_pem);
  CertPtr ca_cert = load_cert(ca.cert_pem);
  CertPtr c = new_cert(key.get(), cn, orgs, 365);
  X509_set_issuer_name(c.get(), X509_get_subject_name(ca_cert.get()));
  add_ext(c.get(), ca_cert.get(), NID_basic_constraints, "critical,CA:FALSE");
  add_ext(c.get(), ca_cert.get(), NID_key_usage, "critical,digitalSignature,keyEncipherment");
  add_ext(c.get(), ca_cert.get(), NID_ext_key_usage, usage);
  add_ext(c.get(), ca_cert.get(), NID_authority_key_identifier, "keyid:always");
  if (!san.empty()) add_ext(c.get(), ca_cert.get(), NID_subject_alt_name, san);
  check(X509_sign(c.get(), ca_key.get(), EVP_sha256()) > 0, "sign");
  return {cert_pem(c.get()), key_pem(key.get())};
}

}  // namespace

CertKey make_ca(const std::string& common_name) {
  KeyPtr key(EVP_EC_gen("P-256"));
  check(key != nullptr, "key");
  CertPtr c = new_cert(key.get(), common_name, {}, 3650);
  X509_set_issuer_name(c.get(), X509_get_subject_name(c.get()));
  add_ext(c.get(), c.get(), NID_basic_constraints, "critical,CA:TRUE");
  add_ext(c.get(), c.get(), NID_key_usage, "critical,digitalSignature,keyCertSign,cRLSign");
  add_ext(c.get(), c.get(), NID_subject_key_identifier, "hash");
  check(X509_sign(c.get(), key.get(), EVP_sha256()) > 0, "sign");
  return {cert_pem(c.get()), key_pem(key.get())};
}

CertKey make_server_cert(const CertKey& ca, const std::vector<std::string>& sans) {
  std::string san;
  for (const auto& s : sans) {
    unsigned char buf[16];
    bool ip = inet_pton(AF_INET, s.c_str(), buf) == 1 || inet_pton(AF_INET6, s.c_str(), buf) == 1;
    san += (san.empty() ? "" : ",") + std::string(ip ? "IP:" : "DNS:") + s;
  }
  return issue(ca, "kubesim-apiserver", {}, "serverAuth", san);
}

CertKey make_client_cert(const CertKey& ca, const std::string& user, const std::vector<std::string>& groups) {
  return issue(ca, user, groups, "clientAuth", "");
}

std::string cert_common_name(const std::string& pem) {
  CertPtr c = load_cert(pem);
  char buf[256] = {0};
  X509_NAME_get_text_by_NID(X509_get_subject_name(c.get()), NID_commonName, buf, sizeof buf);
  return buf;
}

void write_private_file(const std::string& path, const std::string& content) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0) throw std::runtime_error("cannot write " + path);
  ::fchmod(fd, 0600);
  size_t off = 0;
  while (off < content.size()) {
    ssize_t n = ::write(fd, content.data() + off, content.size() - off);
    if (n <= 0) {
      ::close(fd);
      throw std::runtime_error("cannot write " + path);
    }
    off += static_cast<size_t>(n);
  }
  ::close(fd);
}

}  // namespace kubesim
