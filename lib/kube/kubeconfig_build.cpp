#include "kube/kubeconfig_build.h"

#include "core/base64.h"
#include "core/errors.h"
#include "core/file.h"
#include "core/log.h"
#include "core/text.h"

namespace trainctl::kube::detail {
namespace {

constexpr const char* kExecV1 = "client.authentication.k8s.io/v1";
constexpr const char* kExecV1beta1 = "client.authentication.k8s.io/v1beta1";

[[noreturn]] void fail(const std::string& file, const std::string& what) {
  throw ConfigError("kubeconfig " + file + ": " + what);
}

// PEM (or token) material from a file reference or a base64 *-data field.
std::string material(const std::string& file, const std::string& where, const std::string& path_field,
                     const std::string& path, const std::string& data_field, const std::string& data) {
  if (!data.empty()) {
    auto decoded = base64_decode(data);
    if (!decoded) fail(file, where + ": " + data_field + " is not valid base64");
    return *decoded;
  }
  std::string error;
  auto text = read_file(path, error);
  if (!text) fail(file, where + ": cannot read " + path_field + " " + path + ": " + error);
  return *text;
}

void apply_cluster(RestConfig& rest, const std::string& name, const KubeconfigCluster& c) {
  std::string where = "cluster \"" + name + "\"";
  if (c.server.empty()) fail(c.origin, where + " has no server");
  rest.server = c.server;
  if (!c.proxy_url.empty()) {
    std::string scheme = c.proxy_url.substr(0, c.proxy_url.find("://"));
    if (c.proxy_url.find("://") == std::string::npos ||
        (scheme != "http" && scheme != "https" && scheme != "socks5"))
      fail(c.origin, where + ": invalid proxy-url \"" + c.proxy_url +
                         "\": only http, https and socks5 proxies are supported");
  }
  rest.proxy_url = c.proxy_url;
  rest.tls_server_name = c.tls_server_name;
  rest.insecure_skip_tls_verify = c.insecure_skip_tls_verify;
  if (!c.certificate_authority.empty() && !c.certificate_authority_data.empty())
    fail(c.origin, where + " sets both certificate-authority and certificate-authority-data; keep one");
  if (!c.certificate_authority.empty() || !c.certificate_authority_data.empty()) {
    if (c.insecure_skip_tls_verify)
      fail(c.origin, where + ": insecure-skip-tls-verify cannot be combined with a certificate authority");
    rest.ca_pem = material(c.origin, where, "certificate-authority", c.certificate_authority,
                           "certificate-authority-data", c.certificate_authority_data);
  }
}

void check_exec(const std::string& file, const std::string& where, const ExecConfig& e) {
  if (e.api_version.empty())
    fail(file, where + ": exec apiVersion must be set (" + kExecV1 + " or " + kExecV1beta1 + ")");
  if (e.api_version != kExecV1 && e.api_version != kExecV1beta1)
    fail(file, where + ": exec apiVersion \"" + e.api_version + "\" is not supported (use " + kExecV1 + " or " +
                   kExecV1beta1 + ")");
  if (e.command.empty()) fail(file, where + ": exec command must be set");
  // kubectl requires the field for v1 (v1beta1 defaults it to IfAvailable).
  if (e.api_version == kExecV1 && e.interactive_mode.empty())
    fail(file, where + ": exec interactiveMode must be set for " + kExecV1 + " (Never, IfAvailable or Always)");
  if (!e.interactive_mode.empty() && e.interactive_mode != "Never" && e.interactive_mode != "IfAvailable" &&
      e.interactive_mode != "Always")
    fail(file, where + ": exec interactiveMode \"" + e.interactive_mode +
                   "\" is not one of Never, IfAvailable, Always");
  if (e.interactive_mode == "Always")
    fail(file, where + ": the exec plugin needs interactiveMode Always, but plugins run without a terminal");
}

void apply_user(RestConfig& rest, const std::string& name, const KubeconfigUser& u) {
  std::string where = "user \"" + name + "\"";
  if (!u.auth_provider.empty()) {
    if (u.exec) fail(u.origin, where + " sets both auth-provider and exec; keep one");
    fail(u.origin, where + " uses auth-provider \"" + u.auth_provider +
                       "\", which is not supported; use an exec credential plugin instead");
  }
  if (!u.token.empty() && (!u.username.empty() || !u.password.empty()))
    fail(u.origin, where + " sets both a token and username/password; only one authentication method is allowed");

  rest.token_file = u.token_file;
  if (!u.token.empty()) {
    rest.bearer_token = u.token;  // like kubectl, a token wins over tokenFile
  } else if (!u.token_file.empty()) {
    std::string error;
    auto token = read_file(u.token_file, error);
    if (!token) fail(u.origin, where + ": cannot read tokenFile " + u.token_file + ": " + error);
    rest.bearer_token = trim(*token);
  }

  bool has_cert = !u.client_certificate.empty() || !u.client_certificate_data.empty();
  bool has_key = !u.client_key.empty() || !u.client_key_data.empty();
  if (!u.client_certificate.empty() && !u.client_certificate_data.empty())
    fail(u.origin, where + " sets both client-certificate and client-certificate-data; keep one");
  if (!u.client_key.empty() && !u.client_key_data.empty())
    fail(u.origin, where + " sets both client-key and client-key-data; keep one");
  if (has_cert && !has_key) fail(u.origin, where + " has a client certificate but no client-key or client-key-data");
  if (has_key && !has_cert) fail(u.origin, where + " has a client key but no client-certificate or client-certificate-data");
  if (has_cert) {
    log::add_secret(u.client_key_data);
    rest.client_cert_pem = material(u.origin, where, "client-certificate", u.client_certificate,
                                    "client-certificate-data", u.client_certificate_data);
    rest.client_key_pem = material(u.origin, where, "client-key", u.client_key, "client-key-data", u.client_key_data);
  }
  rest.username = u.username;
  rest.password = u.password;
  if (u.exec) {
    check_exec(u.origin, where, *u.exec);
    rest.exec = u.exec;
  }
  log::add_secret(rest.bearer_token);
  log::add_secret(rest.password);
  log::add_secret(rest.client_key_pem);
}

// kubectl sends plain http to a server written without a scheme, whatever the TLS
// settings say; trailing slashes are dropped.
std::string normalize_server(std::string server) {
  if (server.find("://") == std::string::npos) server = "http://" + server;
  while (!server.empty() && server.back() == '/') server.pop_back();
  return server;
}

}  // namespace

RestConfig build_rest_config(const Kubeconfig& config, const std::string& context_name,
                             const KubeconfigContext& context) {
  std::string where = "context \"" + context_name + "\"";
  if (context.cluster.empty()) fail(context.origin, where + " has no cluster");
  auto cluster = config.clusters.find(context.cluster);
  if (cluster == config.clusters.end())
    fail(context.origin, where + " refers to unknown cluster \"" + context.cluster + "\"");

  RestConfig rest;
  rest.context_name = context_name;
  rest.cluster_name = context.cluster;
  rest.user_name = context.user;
  apply_cluster(rest, context.cluster, cluster->second);
  if (!context.user.empty()) {
    auto user = config.users.find(context.user);
    if (user == config.users.end())
      fail(context.origin, where + " refers to unknown user \"" + context.user + "\"");
    apply_user(rest, context.user, user->second);
  }
  rest.server = normalize_server(rest.server);

  if (rest.exec && rest.exec->provide_cluster_info) {
    ExecClusterInfo& info = rest.exec->cluster;
    info.server = rest.server;
    info.tls_server_name = rest.tls_server_name;
    info.insecure_skip_tls_verify = rest.insecure_skip_tls_verify;
    info.ca_pem = rest.ca_pem;
    info.proxy_url = rest.proxy_url;
    info.config_json = cluster->second.exec_extension_json;
  }
  return rest;
}

}  // namespace trainctl::kube::detail
