// The parsed, not yet validated content of kubeconfig files, and kubectl's merge of several
// of them. Relative file references are already resolved against the directory of the file
// that holds them; *-data fields stay base64 until an entry is actually used.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "kube/config.h"

namespace trainctl::kube::detail {

struct KubeconfigCluster {
  std::string server;
  std::string certificate_authority;       // absolute path
  std::string certificate_authority_data;  // base64
  bool insecure_skip_tls_verify = false;
  std::string tls_server_name;
  std::string proxy_url;
  std::string exec_extension_json;  // extensions[name=client.authentication.k8s.io/exec]
  std::string origin;               // the file that defined it
};

struct KubeconfigUser {
  std::string token;
  std::string token_file;  // absolute path
  std::string client_certificate;
  std::string client_certificate_data;
  std::string client_key;
  std::string client_key_data;
  std::string username;
  std::string password;
  std::optional<ExecConfig> exec;  // command resolved when it is a relative path with a '/'
  std::string auth_provider;       // name of a legacy auth-provider, if any
  std::string origin;
};

struct KubeconfigContext {
  std::string cluster;
  std::string user;
  std::string namespace_;
  std::string origin;
};

struct Kubeconfig {
  std::map<std::string, KubeconfigCluster> clusters;
  std::map<std::string, KubeconfigUser> users;
  std::map<std::string, KubeconfigContext> contexts;
  std::string current_context;
  std::string current_context_origin;
  std::vector<std::string> files;  // in precedence order

  bool empty() const { return clusters.empty() && users.empty() && contexts.empty() && current_context.empty(); }
  // The files, joined for messages.
  std::string files_text() const;
};

// Reads and parses one file. Throws ConfigError ("kubeconfig PATH: ...") when it cannot be
// read, is not valid YAML, or does not have the shape of a kubeconfig.
Kubeconfig parse_kubeconfig_file(const std::string& path);

// Parses kubeconfig text; `path` names it in messages and anchors relative references.
Kubeconfig parse_kubeconfig_text(const std::string& text, const std::string& path);

// kubectl's merge: a name defined by an earlier file wins; the first file that sets
// current-context decides it.
void merge_kubeconfig(Kubeconfig& into, Kubeconfig from);

}  // namespace trainctl::kube::detail
