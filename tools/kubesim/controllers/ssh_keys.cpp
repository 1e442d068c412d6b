// ECDSA P-521 SSH keys through OpenSSL 3 (see ssh_keys.h).
#include "kubesim/controllers/ssh_keys.h"

#include <openssl/bio.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <memory>
#include <stdexcept>
#include <vector>

#include "core/base64.h"

namespace kubesim {

namespace {

// RFC 4251 "string": a 32-bit big-endian length, then the bytes.
void put_ssh_string(std::string& out, const std::string& s) {
  const auto n = static_cast<uint32_t>(s.size());
  for (int shift = 24; shift >= 0; shift -= 8) out += static_cast<char>((n >> shift) & 0xff);
  out += s;
}

}  // namespace

SshKeyPair ecdsa_p521_ssh_key() {
  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(EVP_EC_gen("P-521"), EVP_PKEY_free);
  if (!key) throw std::runtime_error("cannot generate an ECDSA P-521 key");
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), BIO_free);
  if (!bio || PEM_write_bio_PrivateKey_traditional(bio.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr) != 1)
    throw std::runtime_error("cannot encode the ECDSA key");
  char* data = nullptr;
  const long len = BIO_get_mem_data(bio.get(), &data);
  SshKeyPair out;
  out.private_pem.assign(data, static_cast<size_t>(len));
  size_t point_len = 0;
  EVP_PKEY_get_octet_string_param(key.get(), OSSL_PKEY_PARAM_PUB_KEY, nullptr, 0, &point_len);
  std::vector<unsigned char> point(point_len);
  if (EVP_PKEY_get_octet_string_param(key.get(), OSSL_PKEY_PARAM_PUB_KEY, point.data(), point.size(), &point_len) != 1)
    throw std::runtime_error("cannot read the ECDSA public key");
  std::string blob;
  put_ssh_string(blob, "ecdsa-sha2-nistp521");
  put_ssh_string(blob, "nistp521");
  put_ssh_string(blob, std::string(point.begin(), point.begin() + static_cast<std::ptrdiff_t>(point_len)));
  out.authorized_key = "ecdsa-sha2-nistp521 " + trainctl::base64_encode(blob) + "\n";
  return out;
}

}  // namespace kubesim
