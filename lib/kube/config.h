// kubeconfig, read as kubectl reads it: --kubeconfig, else KUBECONFIG (several paths merged,
// first file wins per key), else ~/.kube/config, else in-cluster service account.
#pragma once

#include <chrono>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace trainctl::kube {

// What an exec plugin is told about the cluster when provideClusterInfo is set
// (spec.cluster of the ExecCredential passed in KUBERNETES_EXEC_INFO).
struct ExecClusterInfo {
  std::string server;
  std::string tls_server_name;
  bool insecure_skip_tls_verify = false;
  std::string ca_pem;       // sent base64-encoded as certificate-authority-data
  std::string proxy_url;
  std::string config_json;  // the cluster's "client.authentication.k8s.io/exec" extension
};

// users[].user.exec of a kubeconfig.
struct ExecConfig {
  std::string api_version;  // client.authentication.k8s.io/v1 or v1beta1
  std::string command;
  std::vector<std::string> args;
  std::vector<std::pair<std::string, std::string>> env;
  std::string install_hint;
  bool provide_cluster_info = false;
  std::string interactive_mode;  // Never, IfAvailable or Always (plugins always run non-interactively)
  ExecClusterInfo cluster;       // filled by the loader when provide_cluster_info is set
};

// What the exec plugin returned (status of an ExecCredential).
struct ExecCredential {
  std::string token;
  std::string client_certificate_data;  // PEM
  std::string client_key_data;          // PEM
  std::optional<std::chrono::system_clock::time_point> expiration;
};

// Everything needed to talk to one API server as one user. PEM material is held in
// memory (read from files or decoded from *-data fields) and handed to libcurl as blobs.
struct RestConfig {
  std::string server;           // https://host:port (no trailing slash)
  std::string ca_pem;           // empty: system trust store
  bool insecure_skip_tls_verify = false;
  std::string tls_server_name;
  std::string proxy_url;

  std::string bearer_token;     // from token, tokenFile (read at load), or exec
  std::string token_file;       // kept so a rotated token can be re-read
  std::string client_cert_pem;
  std::string client_key_pem;
  std::string username;
  std::string password;
  std::optional<ExecConfig> exec;

  std::string namespace_;       // effective namespace: -n, else context's, else "default"
  std::string context_name;     // empty for in-cluster
  std::string cluster_name;
  std::string user_name;
  std::string source;           // where it came from, for messages: file path(s) or "in-cluster"
};

// Inputs to loading, with the process environment injectable for tests.
struct LoadOptions {
  std::string kubeconfig_path;  // --kubeconfig (or Arena's --config)
  std::string context;          // --context
  std::string namespace_;       // -n/--namespace
  // Looks up an environment variable; defaults to std::getenv.
  std::function<std::optional<std::string>(const std::string&)> getenv;
  // Root for the in-cluster service-account files; tests point it at a fixture dir.
  std::string service_account_dir = "/var/run/secrets/kubernetes.io/serviceaccount";
};

// Loads and resolves the config. Throws ConfigError with one clear line naming the file
// and what is wrong (missing, unreadable, malformed YAML, unknown context, no server...).
RestConfig load_rest_config(const LoadOptions& options);

// Just the namespace, without requiring a usable cluster (for --dry-run and completion).
std::string resolve_namespace(const LoadOptions& options);

// The names of the contexts in the kubeconfig files load_rest_config would read, sorted and
// without repeats; a file that cannot be read or parsed is skipped (for completion, which
// offers what it can). Throws ConfigError as load_rest_config for a missing --kubeconfig.
std::vector<std::string> list_contexts(const LoadOptions& options);

// Runs an exec credential plugin (no shell: the command with its args, env added) and
// caches the credential until its expirationTimestamp. Throws ConfigError (with the
// installHint when the command is missing) or AuthError-class errors.
class ExecCredentialProvider {
public:
  explicit ExecCredentialProvider(ExecConfig config, std::string server = {});
  // Returns a cached credential while it is valid, else runs the plugin again.
  ExecCredential get();
  // Forgets the cached credential (e.g. after a 401) so the next get() re-runs the plugin.
  void invalidate();
  // Replaces the clock used to decide expiry (tests).
  void set_clock(std::function<std::chrono::system_clock::time_point()> now);
  // How long one run of the plugin may take before it is stopped (default 5 minutes).
  void set_timeout(std::chrono::milliseconds timeout);

 private:
  ExecCredential run_plugin() const;

  ExecConfig m_config;
  std::string m_server;
  std::optional<ExecCredential> m_cached;
  std::exception_ptr m_failure;  // the error of the run that failed, rethrown by later get()s
  // kubectl waits for a plugin without a limit; trainctl stops it after 5 minutes, longer than
  // kubelogin's own browser login (--authentication-timeout-sec, 180 s by default).
  std::chrono::milliseconds m_timeout{300000};
  std::function<std::chrono::system_clock::time_point()> m_now;
  std::shared_ptr<std::mutex> m_mutex;
};

}  // namespace trainctl::kube
