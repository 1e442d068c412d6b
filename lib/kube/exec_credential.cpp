// client-go's exec credential plugins (client.authentication.k8s.io v1 and v1beta1): the
// plugin is told about the request in KUBERNETES_EXEC_INFO and prints an ExecCredential.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <nlohmann/json.hpp>

#include "core/base64.h"
#include "core/duration.h"
#include "core/errors.h"
#include "core/log.h"
#include "core/rfc3339.h"
#include "core/text.h"
#include "kube/config.h"
#include "kube/kubeconfig_exec_process.h"
#include "kube/kubeconfig_util.h"

extern char** environ;

namespace trainctl::kube {
namespace {

using Clock = std::chrono::system_clock;

std::string exec_info(const ExecConfig& config, const std::string& server) {
  nlohmann::json spec = {{"interactive", false}};
  if (config.provide_cluster_info) {
    const ExecClusterInfo& c = config.cluster;
    nlohmann::json cluster = {{"server", server.empty() ? c.server : server}};
    if (!c.tls_server_name.empty()) cluster["tls-server-name"] = c.tls_server_name;
    if (c.insecure_skip_tls_verify) cluster["insecure-skip-tls-verify"] = true;
    if (!c.ca_pem.empty()) cluster["certificate-authority-data"] = base64_encode(c.ca_pem);
    if (!c.proxy_url.empty()) cluster["proxy-url"] = c.proxy_url;
    if (!c.config_json.empty()) cluster["config"] = nlohmann::json::parse(c.config_json, nullptr, false);
    spec["cluster"] = cluster;
  }
  return nlohmann::json{{"apiVersion", config.api_version}, {"kind", "ExecCredential"}, {"spec", spec}}.dump();
}

// The inherited environment plus the configured variables; a later entry replaces an
// earlier one of the same name, as Go's os/exec does.
std::vector<std::string> plugin_environment(const ExecConfig& config, const std::string& info) {
  std::vector<std::pair<std::string, std::string>> vars;
  for (char** e = environ; e && *e; ++e) {
    std::string entry(*e);
    size_t eq = entry.find('=');
    if (eq != std::string::npos) vars.emplace_back(entry.substr(0, eq), entry.substr(eq + 1));
  }
  auto set = [&vars](const std::string& name, const std::string& value) {
    for (auto& v : vars) {
      if (v.first == name) {
        v.second = value;
        return;
      }
    }
    vars.emplace_back(name, value);
  };
  for (const auto& [name, value] : config.env) set(name, value);
  set("KUBERNETES_EXEC_INFO", info);
  std::vector<std::string> out;
  out.reserve(vars.size());
  for (const auto& [name, value] : vars) out.push_back(name + "=" + value);
  return out;
}

std::string string_field(const nlohmann::json& obj, const char* key, const std::string& who) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return {};
  if (!it->is_string()) throw ConfigError(who + " returned an ExecCredential whose status." + key + " is not a string");
  return it->get<std::string>();
}

ExecCredential parse_credential(const std::string& out, const ExecConfig& config, const std::string& who) {
  nlohmann::json doc = nlohmann::json::parse(out, nullptr, false);
  // The output is never quoted in messages: it holds the credential.
  if (doc.is_discarded() || !doc.is_object()) throw ConfigError(who + " did not print an ExecCredential JSON object");
  // Nor are its fields: a plugin may put anything there, a token included.
  const auto api_version = doc.find("apiVersion");
  if (api_version == doc.end() || *api_version != config.api_version)
    throw ConfigError(who + " returned an ExecCredential whose apiVersion is not the " + config.api_version +
                      " the kubeconfig asks for");
  const auto kind = doc.find("kind");
  if (kind == doc.end() || *kind != "ExecCredential")
    throw ConfigError(who + " printed a JSON object whose kind is not ExecCredential");
  auto status = doc.find("status");
  if (status == doc.end() || !status->is_object()) throw ConfigError(who + " returned an ExecCredential without status");
  ExecCredential cred;
  cred.token = string_field(*status, "token", who);
  cred.client_certificate_data = string_field(*status, "clientCertificateData", who);
  cred.client_key_data = string_field(*status, "clientKeyData", who);
  log::add_secret(cred.token);
  log::add_secret(cred.client_key_data);
  if (cred.client_certificate_data.empty() != cred.client_key_data.empty())
    throw ConfigError(who + " returned only one of clientCertificateData and clientKeyData");
  if (cred.token.empty() && cred.client_certificate_data.empty())
    throw ConfigError(who + " returned neither a token nor a client certificate and key");
  if (std::string expiry = string_field(*status, "expirationTimestamp", who); !expiry.empty()) {
    cred.expiration = parse_rfc3339(expiry);
    if (!cred.expiration)
      throw ConfigError(who + " returned an expirationTimestamp that is not an RFC 3339 time");
  }
  return cred;
}

}  // namespace

ExecCredentialProvider::ExecCredentialProvider(ExecConfig config, std::string server)
    : m_config(std::move(config)), m_server(std::move(server)), m_mutex(std::make_shared<std::mutex>()) {}

void ExecCredentialProvider::set_clock(std::function<Clock::time_point()> now) {
  std::lock_guard lock(*m_mutex);
  m_now = std::move(now);
}

ExecCredential ExecCredentialProvider::get() {
  std::lock_guard lock(*m_mutex);
  Clock::time_point now = m_now ? m_now() : Clock::now();
  // Like client-go: a credential is used until the clock passes its expiry; one without
  // expirationTimestamp until invalidate().
  if (m_cached && (!m_cached->expiration || now <= *m_cached->expiration)) return *m_cached;
  // A plugin that failed is not run again in the same command: client-go runs it for every
  // request until one succeeds, which for `get` (eight reads) was eight runs of a failing
  // plugin. Its error stands for the rest of the command.
  if (m_failure) std::rethrow_exception(m_failure);
  m_cached.reset();
  try {
    m_cached = run_plugin();
  } catch (...) {
    m_failure = std::current_exception();
    throw;
  }
  return *m_cached;
}

void ExecCredentialProvider::invalidate() {
  std::lock_guard lock(*m_mutex);
  m_cached.reset();
}

void ExecCredentialProvider::set_timeout(std::chrono::milliseconds timeout) {
  std::lock_guard lock(*m_mutex);
  m_timeout = timeout;
}

ExecCredential ExecCredentialProvider::run_plugin() const {
  const std::string& command = m_config.command;
  std::string who = "exec plugin \"" + command + "\"";
  std::string hint = trim(m_config.install_hint);
  auto not_found = [&]() {
    return ConfigError(who + " not found" +
                       (hint.empty() ? std::string(" (is it installed and on PATH?)") : ": " + hint));
  };
  const char* path_env = std::getenv("PATH");
  std::optional<std::string> program = detail::find_executable(command, path_env ? path_env : "");
  if (!program) throw not_found();

  std::vector<std::string> argv{command};
  argv.insert(argv.end(), m_config.args.begin(), m_config.args.end());
  log::debug("running {} with {} argument(s)", who, m_config.args.size());
  detail::ProcessLimits limits;
  limits.timeout = m_timeout;
  detail::ProcessResult result = detail::run_process(
      *program, argv, plugin_environment(m_config, exec_info(m_config, m_server)), limits);
  if (result.exec_errno == ENOENT) throw not_found();
  if (result.exec_errno != 0)
    throw ConfigError(who + " could not be started: " + std::strerror(result.exec_errno));
  // Its stderr may carry a credential, at every log level: what looks like one is redacted
  // before it is shown (kubectl passes a plugin's stderr to the terminal as it is).
  std::string err = log::redact_credentials(detail::one_line(log::redact_credentials(result.err)));
  if (result.timed_out) {
    const auto ms = limits.timeout.count();
    throw ConfigError(
        who + " did not finish within " +
        (ms % 1000 ? std::to_string(ms) + "ms" : short_human_duration(std::chrono::seconds(ms / 1000))) +
        " and was stopped" + (err.empty() ? "" : ": " + err));
  }
  if (result.out_too_long)
    throw ConfigError(who + " printed more than " + std::to_string(limits.max_out >> 10) +
                      " KiB and was stopped; an ExecCredential is a few KiB");
  if (result.term_signal != 0)
    throw ConfigError(who + " was killed by signal " + std::to_string(result.term_signal) +
                      (err.empty() ? "" : ": " + err));
  if (result.exit_code != 0)
    throw ConfigError(who + " failed with exit code " + std::to_string(result.exit_code) +
                      (err.empty() ? "" : ": " + err));
  ExecCredential cred = parse_credential(result.out, m_config, who);
  if (!err.empty()) log::debug("{} wrote to stderr: {}", who, err);
  return cred;
}

}  // namespace trainctl::kube
