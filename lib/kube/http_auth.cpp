#include "kube/http_auth.h"

#include <fstream>
#include <sstream>

#include "core/log.h"

namespace trainctl::kube {
namespace {

// client-go re-reads a token file once a minute; so do we (and at once after a 401).
constexpr std::chrono::seconds k_token_file_ttl{60};

std::string trim(std::string text) {
  const auto b = text.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return {};
  const auto e = text.find_last_not_of(" \t\r\n");
  return text.substr(b, e - b + 1);
}

void register_secrets(const AuthMaterial& m) {
  log::add_secret(m.bearer_token);
  log::add_secret(m.password);
  log::add_secret(m.client_key_pem);
}

}  // namespace

Credentials::Credentials(const RestConfig& config) : m_token_file(config.token_file) {
  m_static.bearer_token = config.bearer_token;
  m_static.username = config.username;
  m_static.password = config.password;
  m_static.client_cert_pem = config.client_cert_pem;
  m_static.client_key_pem = config.client_key_pem;
  register_secrets(m_static);
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
  std::ifstream in(m_token_file, std::ios::binary);
  std::ostringstream text;
  if (in) text << in.rdbuf();
  std::string token = trim(text.str());
  if (!in || token.empty()) {
    // Keep the token we have: a file being rotated may be briefly missing or empty.
    log::warn("cannot re-read the token file {}; keeping the token read before", m_token_file);
    return;
  }
  log::add_secret(token);
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
    register_secrets(m);
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
