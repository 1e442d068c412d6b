#include "kube/kubeconfig_file.h"

#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/base64.h"
#include "core/errors.h"
#include "core/file.h"
#include "yaml/read.h"

namespace fs = std::filesystem;

namespace trainctl::kube::detail {
namespace {

using nlohmann::json;

constexpr const char* kExecExtension = "client.authentication.k8s.io/exec";

// How a string field of a cluster or user is read: as written; as a path, relative to the
// kubeconfig's directory; as base64 data, checked on load (client-go's []byte fields).
enum class Form { Text, Path, Base64 };

template <typename T>
struct StringField {
  const char* key;
  std::string T::*member;
  Form form;
};

constexpr StringField<KubeconfigCluster> kClusterStrings[] = {
    {"server", &KubeconfigCluster::server, Form::Text},
    {"certificate-authority", &KubeconfigCluster::certificate_authority, Form::Path},
    {"certificate-authority-data", &KubeconfigCluster::certificate_authority_data, Form::Base64},
    {"tls-server-name", &KubeconfigCluster::tls_server_name, Form::Text},
    {"proxy-url", &KubeconfigCluster::proxy_url, Form::Text},
};

constexpr StringField<KubeconfigUser> kUserStrings[] = {
    {"token", &KubeconfigUser::token, Form::Text},
    {"tokenFile", &KubeconfigUser::token_file, Form::Path},
    {"client-certificate", &KubeconfigUser::client_certificate, Form::Path},
    {"client-certificate-data", &KubeconfigUser::client_certificate_data, Form::Base64},
    {"client-key", &KubeconfigUser::client_key, Form::Path},
    {"client-key-data", &KubeconfigUser::client_key_data, Form::Base64},
    {"username", &KubeconfigUser::username, Form::Text},
    {"password", &KubeconfigUser::password, Form::Text},
};

// client-go reads a kubeconfig as kubectl reads any YAML (sigs.k8s.io/yaml: YAML -> JSON,
// then JSON into the typed Config), so a field holds what the YAML scalar resolves to:
// "insecure-skip-tls-verify: yes" is true, and "namespace: 0x10" or "token: 123" are numbers,
// which client-go refuses ("cannot unmarshal number into Go struct field ... of type string")
// and so does trainctl.
class Parser {
 public:
  explicit Parser(const std::string& path)
      : m_path(path), m_dir(fs::absolute(fs::path(path)).parent_path()) {}

  Kubeconfig parse(const std::string& text) {
    Kubeconfig config;
    config.files.push_back(m_path);
    json root;
    try {
      root = yaml::parse(text, "");
    } catch (const yaml::ParseError& e) {
      if (e.line() > 0) fail("invalid YAML at line " + std::to_string(e.line()) + ": " + e.detail());
      fail("invalid YAML: " + e.detail());
    }
    if (root.is_null()) return config;  // an empty file is an empty config
    if (!root.is_object()) fail("not a kubeconfig: expected a YAML mapping at the top level");
    for (const auto& [name, item] : named_list(root, "clusters", "cluster"))
      config.clusters[name] = cluster(name, item);
    for (const auto& [name, item] : named_list(root, "users", "user")) config.users[name] = user(name, item);
    for (const auto& [name, item] : named_list(root, "contexts", "context"))
      config.contexts[name] = context(name, item);
    config.current_context = string(root, "current-context", "");
    if (!config.current_context.empty()) config.current_context_origin = m_path;
    return config;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw ConfigError("kubeconfig " + m_path + ": " + what);
  }

  static std::string where_prefix(const std::string& where) { return where.empty() ? "" : where + " "; }

  // The field, or nullptr when the map does not have it or it is null.
  static const json* field(const json& map, const char* key) {
    auto it = map.find(key);
    return it == map.end() || it->is_null() ? nullptr : &*it;
  }

  std::string string(const json& map, const char* key, const std::string& where) const {
    const json* v = field(map, key);
    if (!v) return {};
    if (!v->is_string()) fail(where_prefix(where) + "field \"" + key + "\" must be a string");
    return v->get<std::string>();
  }

  bool boolean(const json& map, const char* key, const std::string& where) const {
    const json* v = field(map, key);
    if (!v) return false;
    if (!v->is_boolean()) fail(where_prefix(where) + "field \"" + key + "\" must be true or false");
    return v->get<bool>();
  }

  // A list of {name: N, <item_key>: {...}} entries, as (name, inner map) pairs.
  std::vector<std::pair<std::string, json>> named_list(const json& root, const char* key,
                                                       const char* item_key) const {
    std::vector<std::pair<std::string, json>> out;
    const json* list = field(root, key);
    if (!list) return out;
    if (!list->is_array()) fail(std::string("\"") + key + "\" must be a list");
    size_t index = 0;
    for (const auto& item : *list) {
      std::string at = std::string(key) + "[" + std::to_string(index++) + "]";
      if (!item.is_object()) fail(at + " must be a mapping with \"name\" and \"" + item_key + "\"");
      std::string name = string(item, "name", at);
      if (name.empty()) fail(at + " has no name");
      const json* inner = field(item, item_key);
      if (inner && !inner->is_object())
        fail(std::string(item_key) + " \"" + name + "\": \"" + item_key + "\" must be a mapping");
      out.emplace_back(name, inner ? *inner : json::object());
    }
    return out;
  }

  std::string resolve(const std::string& path) const {
    if (path.empty() || fs::path(path).is_absolute()) return path;
    return (m_dir / path).lexically_normal().string();
  }

  // A *-data field, checked when the file is read: client-go decodes these into []byte and
  // refuses the whole file over one invalid value ("illegal base64 data"), whichever context
  // is used, and so does trainctl.
  std::string base64_field(const json& n, const char* key, const std::string& where) const {
    std::string value = string(n, key, where);
    if (!value.empty() && !base64_decode(value)) fail(where + ": " + key + " is not valid base64");
    return value;
  }

  // The string fields of a cluster or user, in the table's order, each read as its Form says.
  template <typename T, size_t N>
  void read_strings(T& out, const json& n, const std::string& where,
                    const StringField<T> (&fields)[N]) const {
    for (const auto& f : fields) {
      if (f.form == Form::Base64)
        out.*f.member = base64_field(n, f.key, where);
      else if (f.form == Form::Path)
        out.*f.member = resolve(string(n, f.key, where));
      else
        out.*f.member = string(n, f.key, where);
    }
  }

  KubeconfigCluster cluster(const std::string& name, const json& n) const {
    std::string where = "cluster \"" + name + "\"";
    KubeconfigCluster c;
    c.origin = m_path;
    read_strings(c, n, where, kClusterStrings);
    c.insecure_skip_tls_verify = boolean(n, "insecure-skip-tls-verify", where);
    const json* extensions = field(n, "extensions");
    if (extensions && extensions->is_array()) {
      for (const auto& ext : *extensions) {
        // Bytes that are not UTF-8 become U+FFFD, as Go's encoding/json writes them for kubectl.
        if (ext.is_object() && string(ext, "name", where) == kExecExtension && ext.contains("extension"))
          c.exec_extension_json = ext["extension"].dump(-1, ' ', false, json::error_handler_t::replace);
      }
    }
    return c;
  }

  KubeconfigUser user(const std::string& name, const json& n) const {
    std::string where = "user \"" + name + "\"";
    KubeconfigUser u;
    u.origin = m_path;
    read_strings(u, n, where, kUserStrings);
    const json* provider = field(n, "auth-provider");
    if (provider && provider->is_object())
      u.auth_provider = string(*provider, "name", where + " auth-provider");
    if (const json* exec = field(n, "exec")) {
      if (!exec->is_object()) fail(where + ": \"exec\" must be a mapping");
      u.exec = exec_config(where + " exec", *exec);
    }
    return u;
  }

  ExecConfig exec_config(const std::string& where, const json& n) const {
    ExecConfig e;
    e.api_version = string(n, "apiVersion", where);
    e.command = string(n, "command", where);
    // kubectl runs a relative command that contains a '/' relative to the kubeconfig's directory.
    if (e.command.find('/') != std::string::npos) e.command = resolve(e.command);
    if (const json* args = field(n, "args")) {
      if (!args->is_array()) fail(where + ": \"args\" must be a list of strings");
      for (const auto& a : *args) {
        if (!a.is_string()) fail(where + ": \"args\" must be a list of strings");
        e.args.push_back(a.get<std::string>());
      }
    }
    if (const json* env = field(n, "env")) {
      if (!env->is_array()) fail(where + ": \"env\" must be a list of {name, value}");
      for (const auto& v : *env) {
        if (!v.is_object()) fail(where + ": \"env\" must be a list of {name, value}");
        std::string var = string(v, "name", where + " env");
        if (var.empty()) fail(where + ": env entry without a name");
        e.env.emplace_back(var, string(v, "value", where + " env \"" + var + "\""));
      }
    }
    e.install_hint = string(n, "installHint", where);
    e.provide_cluster_info = boolean(n, "provideClusterInfo", where);
    e.interactive_mode = string(n, "interactiveMode", where);
    return e;
  }

  KubeconfigContext context(const std::string& name, const json& n) const {
    std::string where = "context \"" + name + "\"";
    KubeconfigContext c;
    c.origin = m_path;
    c.cluster = string(n, "cluster", where);
    c.user = string(n, "user", where);
    c.namespace_ = string(n, "namespace", where);
    return c;
  }

  std::string m_path;
  fs::path m_dir;
};

}  // namespace

std::string Kubeconfig::files_text() const {
  std::string out;
  for (const auto& f : files) out += (out.empty() ? "" : ", ") + f;
  return out;
}

Kubeconfig parse_kubeconfig_text(const std::string& text, const std::string& path) {
  return Parser(path).parse(text);
}

Kubeconfig parse_kubeconfig_file(const std::string& path) {
  std::string error;
  std::optional<std::string> text = read_file(path, error);
  if (!text) throw ConfigError("kubeconfig " + path + ": cannot read: " + error);
  return parse_kubeconfig_text(*text, path);
}

void merge_kubeconfig(Kubeconfig& into, Kubeconfig from) {
  for (auto& [name, c] : from.clusters) into.clusters.emplace(name, std::move(c));
  for (auto& [name, u] : from.users) into.users.emplace(name, std::move(u));
  for (auto& [name, c] : from.contexts) into.contexts.emplace(name, std::move(c));
  if (into.current_context.empty() && !from.current_context.empty()) {
    into.current_context = from.current_context;
    into.current_context_origin = from.current_context_origin;
  }
  for (auto& f : from.files) into.files.push_back(std::move(f));
}

}  // namespace trainctl::kube::detail
