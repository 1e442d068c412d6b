// Throwaway TLS material for tests: a certificate authority (EC P-256, made in memory with
// the OpenSSL API) that issues server and client certificates. Nothing touches the disk.
#pragma once

#include <string>
#include <vector>

namespace trainctl::testing {

struct CertAndKey {
  std::string cert_pem;
  std::string key_pem;
};

class TestCa {
public:
  explicit TestCa(const std::string& common_name = "trainctl test CA");

  const std::string& cert_pem() const { return m_ca.cert_pem; }

  // A server certificate valid for these DNS names and IP addresses (subjectAltName).
  CertAndKey issue_server(const std::vector<std::string>& dns_names = {"localhost"},
                          const std::vector<std::string>& ip_addresses = {"127.0.0.1"}) const;

  // A client certificate as the Kubernetes API server reads one: CN = user name,
  // O = groups.
  CertAndKey issue_client(const std::string& common_name, const std::vector<std::string>& organizations = {}) const;

private:
  CertAndKey m_ca;
};

}  // namespace trainctl::testing
