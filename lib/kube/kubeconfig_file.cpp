#include "kube/kubeconfig_file.h"

#include <yaml-cpp/yaml.h>

#include <charconv>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/base64.h"
#include "core/errors.h"
#include "core/file.h"

namespace fs = std::filesystem;

namespace trainctl::kube::detail {
namespace {

constexpr const char* kExecExtension = "client.authentication.k8s.io/exec";

// YAML as kubectl reads it (YAML converted to JSON): plain scalars become numbers, booleans
// or null when they look like one, quoted scalars stay strings.
nlohmann::json yaml_to_json(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Map: {
      nlohmann::json obj = nlohmann::json::object();
      for (const auto& kv : node) obj[kv.first.Scalar()] = yaml_to_json(kv.second);
      return obj;
    }
    case YAML::NodeType::Sequence: {
      nlohmann::json arr = nlohmann::json::array();
      for (const auto& item : node) arr.push_back(yaml_to_json(item));
      return arr;
    }
    case YAML::NodeType::Scalar: {
      const std::string& s = node.Scalar();
      if (node.Tag() == "!") return s;
      if (s == "true" || s == "True" || s == "TRUE") return true;
      if (s == "false" || s == "False" || s == "FALSE") return false;
      if (s == "~" || s == "null" || s == "Null" || s == "NULL") return nullptr;
      long long i = 0;
      auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), i);
      if (ec == std::errc() && p == s.data() + s.size() && !s.empty()) return i;
      double d = 0;
      auto [pd, ecd] = std::from_chars(s.data(), s.data() + s.size(), d);
      if (ecd == std::errc() && pd == s.data() + s.size() && !s.empty()) return d;
      return s;
    }
    default:
      return nullptr;
  }
}

class Parser {
public:
  explicit Parser(const std::string& path)
      : m_path(path), m_dir(fs::absolute(fs::path(path)).parent_path()) {}

  Kubeconfig parse(const std::string& text) {
    Kubeconfig config;
    config.files.push_back(m_path);
    YAML::Node root;
    try {
      root = YAML::Load(text);
    } catch (const YAML::ParserException& e) {
      if (e.mark.line >= 0) fail("invalid YAML at line " + std::to_string(e.mark.line + 1) + ": " + e.msg);
      fail("invalid YAML: " + e.msg);
    }
    if (!root || root.IsNull()) return config;  // an empty file is an empty config
    if (!root.IsMap()) fail("not a kubeconfig: expected a YAML mapping at the top level");
    try {
      for (const auto& [name, item] : named_list(root, "clusters", "cluster")) config.clusters[name] = cluster(name, item);
      for (const auto& [name, item] : named_list(root, "users", "user")) config.users[name] = user(name, item);
      for (const auto& [name, item] : named_list(root, "contexts", "context")) config.contexts[name] = context(name, item);
      config.current_context = string(root, "current-context", "");
      if (!config.current_context.empty()) config.current_context_origin = m_path;
    } catch (const YAML::Exception& e) {
      fail("invalid YAML: " + e.msg);
    }
    return config;
  }

private:
  [[noreturn]] void fail(const std::string& what) const { throw ConfigError("kubeconfig " + m_path + ": " + what); }

  static std::string where_prefix(const std::string& where) { return where.empty() ? "" : where + " "; }

  std::string string(const YAML::Node& map, const char* key, const std::string& where) const {
    YAML::Node n = map[key];
    if (!n || n.IsNull()) return {};
    if (!n.IsScalar()) fail(where_prefix(where) + "field \"" + key + "\" must be a string");
    return n.Scalar();
  }

  bool boolean(const YAML::Node& map, const char* key, const std::string& where) const {
    YAML::Node n = map[key];
    if (!n || n.IsNull()) return false;
    bool value = false;
    if (!n.IsScalar() || !YAML::convert<bool>::decode(n, value))
      fail(where_prefix(where) + "field \"" + key + "\" must be true or false");
    return value;
  }

  // A list of {name: N, <item_key>: {...}} entries, as (name, inner map) pairs.
  std::vector<std::pair<std::string, YAML::Node>> named_list(const YAML::Node& root, const char* key,
                                                             const char* item_key) const {
    std::vector<std::pair<std::string, YAML::Node>> out;
    YAML::Node list = root[key];
    if (!list || list.IsNull()) return out;
    if (!list.IsSequence()) fail(std::string("\"") + key + "\" must be a list");
    size_t index = 0;
    for (const auto& item : list) {
      std::string at = std::string(key) + "[" + std::to_string(index++) + "]";
      if (!item.IsMap()) fail(at + " must be a mapping with \"name\" and \"" + item_key + "\"");
      std::string name = string(item, "name", at);
      if (name.empty()) fail(at + " has no name");
      YAML::Node inner = item[item_key];
      if (inner && !inner.IsNull() && !inner.IsMap())
        fail(std::string(item_key) + " \"" + name + "\": \"" + item_key + "\" must be a mapping");
      out.emplace_back(name, inner && inner.IsMap() ? inner : YAML::Node(YAML::NodeType::Map));
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
  std::string base64_field(const YAML::Node& n, const char* key, const std::string& where) const {
    std::string value = string(n, key, where);
    if (!value.empty() && !base64_decode(value)) fail(where + ": " + key + " is not valid base64");
    return value;
  }

  KubeconfigCluster cluster(const std::string& name, const YAML::Node& n) const {
    std::string where = "cluster \"" + name + "\"";
    KubeconfigCluster c;
    c.origin = m_path;
    c.server = string(n, "server", where);
    c.certificate_authority = resolve(string(n, "certificate-authority", where));
    c.certificate_authority_data = base64_field(n, "certificate-authority-data", where);
    c.insecure_skip_tls_verify = boolean(n, "insecure-skip-tls-verify", where);
    c.tls_server_name = string(n, "tls-server-name", where);
    c.proxy_url = string(n, "proxy-url", where);
    YAML::Node extensions = n["extensions"];
    if (extensions && extensions.IsSequence()) {
      for (const auto& ext : extensions) {
        // Bytes that are not UTF-8 become U+FFFD, as Go's encoding/json writes them for kubectl.
        if (ext.IsMap() && string(ext, "name", where) == kExecExtension && ext["extension"])
          c.exec_extension_json =
              yaml_to_json(ext["extension"]).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      }
    }
    return c;
  }

  KubeconfigUser user(const std::string& name, const YAML::Node& n) const {
    std::string where = "user \"" + name + "\"";
    KubeconfigUser u;
    u.origin = m_path;
    u.token = string(n, "token", where);
    u.token_file = resolve(string(n, "tokenFile", where));
    u.client_certificate = resolve(string(n, "client-certificate", where));
    u.client_certificate_data = base64_field(n, "client-certificate-data", where);
    u.client_key = resolve(string(n, "client-key", where));
    u.client_key_data = base64_field(n, "client-key-data", where);
    u.username = string(n, "username", where);
    u.password = string(n, "password", where);
    YAML::Node provider = n["auth-provider"];
    if (provider && provider.IsMap()) u.auth_provider = string(provider, "name", where + " auth-provider");
    YAML::Node exec = n["exec"];
    if (exec && !exec.IsNull()) {
      if (!exec.IsMap()) fail(where + ": \"exec\" must be a mapping");
      u.exec = exec_config(where + " exec", exec);
    }
    return u;
  }

  ExecConfig exec_config(const std::string& where, const YAML::Node& n) const {
    ExecConfig e;
    e.api_version = string(n, "apiVersion", where);
    e.command = string(n, "command", where);
    // kubectl runs a relative command that contains a '/' relative to the kubeconfig's directory.
    if (e.command.find('/') != std::string::npos) e.command = resolve(e.command);
    YAML::Node args = n["args"];
    if (args && !args.IsNull()) {
      if (!args.IsSequence()) fail(where + ": \"args\" must be a list of strings");
      for (const auto& a : args) {
        if (!a.IsScalar()) fail(where + ": \"args\" must be a list of strings");
        e.args.push_back(a.Scalar());
      }
    }
    YAML::Node env = n["env"];
    if (env && !env.IsNull()) {
      if (!env.IsSequence()) fail(where + ": \"env\" must be a list of {name, value}");
      for (const auto& v : env) {
        if (!v.IsMap()) fail(where + ": \"env\" must be a list of {name, value}");
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

  KubeconfigContext context(const std::string& name, const YAML::Node& n) const {
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
