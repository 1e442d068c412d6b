#include "kube/http_auth.h"

#include "core/base64.h"
#include "core/file.h"
#include "core/log.h"
#include "core/text.h"

namespace trainctl::kube {
namespace {

// client-go re-reads a token file once a minute; so do we (and at once after a 401).
constexpr std::chrono::seconds k_token_file_ttl{60};

}  // namespace

void Credentials::register_secret_locked(const std::string& secret) {
  if (secret.empty() || !m_registered.insert(secret).second) return;  // each value once
  log::add_secret(secret);
}

void Credentials::register_secrets_locked(const AuthMaterial& m) {
  register_secret_locked(m.bearer_token);
  register_secret_locked(m.password);
  register_secret_locked(m.client_key_pem);
  if (!m.password.empty()) {
    // The value of the Basic Authorization header libcurl builds from them.
    register_secret_locked(base64_encode(m.username + ":" + m.password));
  }
}

Credentials::Credentials(const RestConfig& config) : m_token_file(config.token_file) {
  m_static.bearer_token = config.bearer_token;
  m_static.username = config.username;
  m_static.password = config.password;
  m_static.client_cert_pem = config.client_cert_pem;
  m_static.client_key_pem = config.client_key_pem;
  register_secrets_locked(m_static);
  m_token_read_at = std::chrono::steady_clock::now();
  if (m_static.bearer_token.empty() && !m_token_file.empty()) reread_token_file_locked(true);
  if (config.exec) m_exec = std::make_unique<ExecCredentialProvider>(*config.exec, config.server);
}

Credentials::~Credentials() = default;

void Credentials::reread_token_file_locked(bool force) {
  if (m_token_file.empty()) return;
  const auto now = std::chrono::steady_clock::now();
  if (!force && now - m_token_read_at < k_token_file_ttl) return;
  m_token_read_at = now;
  std::string error;
  const std::optional<std::string> text = read_file(m_token_file, error);
  std::string token = text ? trim(*text) : std::string();
  if (token.empty()) {
    // Keep the token we have: a file being rotated may be briefly missing or empty.
    log::warn("cannot re-read the token file {}; keeping the token read before", m_token_file);
    return;
  }
  register_secret_locked(token);
  m_static.bearer_token = std::move(token);
}

AuthMaterial Credentials::current() {
  std::lock_guard lock(m_mutex);
  reread_token_file_locked(false);
  AuthMaterial m = m_static;
  if (m_exec) {
    ExecCredential cred = m_exec->get();
    if (!cred.token.empty()) {
      m.bearer_token = std::move(cred.token);
      m.username.clear();
      m.password.clear();
    }
    if (!cred.client_certificate_data.empty() && !cred.client_key_data.empty()) {
      m.client_cert_pem = std::move(cred.client_certificate_data);
      m.client_key_pem = std::move(cred.client_key_data);
    }
    register_secrets_locked(m);
  }
  return m;
}

bool Credentials::refresh_after_unauthorized() {
  std::lock_guard lock(m_mutex);
  if (m_exec) {
    m_exec->invalidate();
    return true;
  }
  if (!m_token_file.empty()) {
    const std::string before = m_static.bearer_token;
    reread_token_file_locked(true);
    return m_static.bearer_token != before;
  }
  return false;
}

}  // namespace trainctl::kube
