#include <filesystem>

#include "core/errors.h"
#include "core/file.h"
#include "core/log.h"
#include "core/text.h"
#include "kube/kubeconfig_in_cluster.h"

namespace fs = std::filesystem;

namespace trainctl::kube::detail {
namespace {

std::string env_or_empty(const Getenv& getenv, const char* name) { return getenv(name).value_or(""); }

fs::path sa_file(const LoadOptions& options, const char* name) { return fs::path(options.service_account_dir) / name; }

}  // namespace

bool in_cluster_possible(const LoadOptions& options, const Getenv& getenv) {
  if (env_or_empty(getenv, "KUBERNETES_SERVICE_HOST").empty()) return false;
  if (env_or_empty(getenv, "KUBERNETES_SERVICE_PORT").empty()) return false;
  std::error_code ec;
  return fs::exists(sa_file(options, "token"), ec) && !fs::is_directory(sa_file(options, "token"), ec);
}

std::string in_cluster_namespace(const LoadOptions& options, const Getenv& getenv) {
  if (!options.namespace_.empty()) return options.namespace_;
  // client-go looks at POD_NAMESPACE (set through the downward API) first.
  if (std::string ns = env_or_empty(getenv, "POD_NAMESPACE"); !ns.empty()) return ns;
  std::string error;
  if (auto data = read_file(sa_file(options, "namespace").string(), error)) {
    if (std::string ns = trim(*data); !ns.empty()) return ns;
  }
  return "default";
}

RestConfig load_in_cluster(const LoadOptions& options, const Getenv& getenv) {
  std::string host = env_or_empty(getenv, "KUBERNETES_SERVICE_HOST");
  std::string port = env_or_empty(getenv, "KUBERNETES_SERVICE_PORT");
  if (host.empty() || port.empty())
    throw ConfigError("in-cluster config: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be set");
  RestConfig config;
  config.source = "in-cluster";
  // An IPv6 address needs brackets in a URL, as net.JoinHostPort adds them.
  if (host.find(':') != std::string::npos && host.front() != '[') host = "[" + host + "]";
  config.server = "https://" + host + ":" + port;

  std::string error;
  config.token_file = sa_file(options, "token").string();
  auto token = read_file(config.token_file, error);
  if (!token) throw ConfigError("in-cluster config: cannot read service account token " + config.token_file + ": " + error);
  config.bearer_token = trim(*token);
  if (config.bearer_token.empty()) throw ConfigError("in-cluster config: service account token " + config.token_file + " is empty");
  log::add_secret(config.bearer_token);

  std::string ca_path = sa_file(options, "ca.crt").string();
  if (auto ca = read_file(ca_path, error)) {
    config.ca_pem = *ca;
  } else {
    // client-go goes on with the system trust store when ca.crt cannot be read.
    log::warn("in-cluster config: cannot read {}: {}; using the system trust store", ca_path, error);
  }
  config.namespace_ = in_cluster_namespace(options, getenv);
  log::debug("using in-cluster config: server {}, namespace {}", config.server, config.namespace_);
  return config;
}

}  // namespace trainctl::kube::detail
