// The credentials of one RestConfig as they stand for the next request: a bearer token
// (re-read from token_file when it rotates), basic auth, a client certificate, or what an
// exec plugin returns. Every secret handed out is registered with log::add_secret.
#pragma once

#include <chrono>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "kube/config.h"

namespace trainctl::kube {

struct AuthMaterial {
  std::string bearer_token;
  std::string username;
  std::string password;
  std::string client_cert_pem;
  std::string client_key_pem;
};

class Credentials {
public:
  explicit Credentials(const RestConfig& config);
  ~Credentials();
  Credentials(const Credentials&) = delete;
  Credentials& operator=(const Credentials&) = delete;

  // The material for the next request. May run the exec plugin (errors propagate).
  AuthMaterial current();

  // Called after a 401: forgets the exec plugin's credential and re-reads token_file.
  // True when the next attempt may carry different credentials (worth one retry).
  bool refresh_after_unauthorized();

private:
  void reread_token_file_locked(bool force);
  void register_secret_locked(const std::string& secret);
  void register_secrets_locked(const AuthMaterial& m);

  std::mutex m_mutex;
  AuthMaterial m_static;
  std::string m_token_file;
  std::chrono::steady_clock::time_point m_token_read_at;
  std::unique_ptr<ExecCredentialProvider> m_exec;
  std::set<std::string> m_registered;  // secrets already given to log::add_secret
};

}  // namespace trainctl::kube
