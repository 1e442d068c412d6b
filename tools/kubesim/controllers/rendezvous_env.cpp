// A container's environment (kubelet pkg/kubelet/kubelet_pods.go makeEnvironmentVariables:
// env entries in order, each value expanded with the ones before it; fieldRef through the
// downward API, pkg/fieldpath/fieldpath.go).
#include "kubesim/controllers/rendezvous_env.h"

namespace kubesim {

using nlohmann::json;

namespace {

// metadata.labels['key'] / metadata.annotations['key'] -> the map and the key.
bool subscript(const std::string& path, const std::string& prefix, std::string* key) {
  if (path.rfind(prefix + "['", 0) != 0 || path.size() < prefix.size() + 4 || path.substr(path.size() - 2) != "']")
    return false;
  *key = path.substr(prefix.size() + 2, path.size() - prefix.size() - 4);
  return true;
}

// The downward-API value of fieldPath (fieldpath.go ExtractFieldPathAsString plus the
// kubelet's podIP/hostIP/nodeName/serviceAccountName); nullopt when kubesim cannot tell.
std::optional<std::string> field_ref(const json& pod, const std::string& path) {
  const json meta = pod.value("metadata", json::object());
  const json spec = pod.value("spec", json::object());
  const json status = pod.value("status", json::object());
  std::string key;
  if (path == "metadata.name") return meta.value("name", "");
  if (path == "metadata.namespace") return meta.value("namespace", "");
  if (path == "metadata.uid") return meta.value("uid", "");
  if (path == "spec.nodeName") return spec.value("nodeName", "");
  if (path == "spec.serviceAccountName") return spec.value("serviceAccountName", "default");
  if (path == "status.podIP") return status.value("podIP", "");
  if (path == "status.hostIP") return status.value("hostIP", "");
  if (subscript(path, "metadata.labels", &key)) return meta.value("labels", json::object()).value(key, "");
  if (subscript(path, "metadata.annotations", &key))
    return meta.value("annotations", json::object()).value(key, "");
  return std::nullopt;
}

}  // namespace

std::string expand_kubernetes(const std::string& text, const ContainerEnv& env, bool* unknown) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '$' || i + 1 >= text.size()) {
      out += text[i];
      continue;
    }
    const char next = text[i + 1];
    if (next == '$') {  // escaped operator
      out += '$';
      ++i;
      continue;
    }
    const size_t close = next == '(' ? text.find(')', i + 2) : std::string::npos;
    if (close == std::string::npos) {  // not a reference, or an incomplete one: kept
      out += '$';
      continue;
    }
    const std::string name = text.substr(i + 2, close - i - 2);
    if (!env.known(name)) {
      if (unknown) *unknown = true;
    } else if (auto v = env.value(name)) {
      out += *v;
    } else {
      out += "$(" + name + ")";  // undefined: left as written
    }
    i = close;
  }
  return out;
}

ContainerEnv ContainerEnv::of(const json& pod, const json& container) {
  ContainerEnv env;
  const json spec = pod.value("spec", json::object());
  const std::string hostname = spec.value("hostname", "");
  env.set("HOSTNAME", hostname.empty() ? pod.value("metadata", json::object()).value("name", "") : hostname);
  const json from = container.value("envFrom", json::array());
  env.m_open = from.is_array() && !from.empty();
  for (const auto& e : container.value("env", json::array())) {
    if (!e.is_object() || !e.contains("name") || !e["name"].is_string()) continue;
    const std::string name = e["name"];
    if (e.contains("valueFrom")) {
      const json& vf = e["valueFrom"];
      std::optional<std::string> v;
      if (vf.is_object() && vf.contains("fieldRef") && vf["fieldRef"].is_object())
        v = field_ref(pod, vf["fieldRef"].value("fieldPath", ""));
      if (v)
        env.set(name, *v);
      else
        env.set_unknown(name);
      continue;
    }
    bool unknown = false;
    const std::string raw = e.contains("value") && e["value"].is_string() ? e["value"].get<std::string>() : "";
    const std::string value = expand_kubernetes(raw, env, &unknown);
    if (unknown)
      env.set_unknown(name);
    else
      env.set(name, value);
  }
  return env;
}

std::optional<std::string> ContainerEnv::value(const std::string& name) const {
  if (m_unknown.count(name)) return std::nullopt;
  auto it = m_values.find(name);
  if (it == m_values.end()) return std::nullopt;
  return it->second;
}

bool ContainerEnv::known(const std::string& name) const {
  if (m_unknown.count(name)) return false;
  return m_values.count(name) || !m_open;
}

void ContainerEnv::set(const std::string& name, std::string value, bool exported) {
  m_unknown.erase(name);
  m_values[name] = std::move(value);
  if (exported) m_exported.insert(name);
}

void ContainerEnv::set_unknown(const std::string& name) {
  m_values.erase(name);
  m_unknown.insert(name);
  m_exported.insert(name);
}

void ContainerEnv::unset(const std::string& name) {
  m_values.erase(name);
  m_unknown.erase(name);
  m_exported.erase(name);
}

void ContainerEnv::mark_exported(const std::string& name) { m_exported.insert(name); }

ContainerEnv ContainerEnv::exported_only() const {
  ContainerEnv out;
  out.m_open = m_open;
  for (const auto& [k, v] : m_values)
    if (m_exported.count(k)) out.set(k, v);
  for (const auto& k : m_unknown)
    if (m_exported.count(k)) out.set_unknown(k);
  return out;
}

}  // namespace kubesim
