// Self-signed CA and certificates for kubesim (OpenSSL API, EC P-256 keys).
#pragma once

#include <string>
#include <vector>

namespace kubesim {

struct CertKey {
  std::string cert_pem;
  std::string key_pem;  // private key: never logged
};

// A CA certificate valid for ten years.
CertKey make_ca(const std::string& common_name);

// A certificate signed by ca. Server certificates get serverAuth and the subjectAltNames
// (IP addresses and DNS names, e.g. "127.0.0.1", "localhost"); client certificates get
// clientAuth, CN = user and O = each of groups.
CertKey make_server_cert(const CertKey& ca, const std::vector<std::string>& sans);
CertKey make_client_cert(const CertKey& ca, const std::string& user, const std::vector<std::string>& groups);

// The CN and O values of a certificate (for tests).
std::string cert_common_name(const std::string& cert_pem);

void write_private_file(const std::string& path, const std::string& content);  // mode 0600

}  // namespace kubesim
