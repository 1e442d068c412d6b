// The environment a container's process starts with, as far as kubesim can know it: the
// container's `env` in order (literal values with Kubernetes' $(VAR) references, downward-API
// fieldRefs), plus HOSTNAME as the container runtime sets it. A variable is known, absent,
// or unknown (a ConfigMap, Secret or resource reference, or anything `envFrom` may bring):
// a rendezvous that depends on an unknown value is not judged.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>

namespace kubesim {

class ContainerEnv {
 public:
  // The env of container (an element of pod.spec.containers) in pod.
  static ContainerEnv of(const nlohmann::json& pod, const nlohmann::json& container);

  // The value of a known variable; nullopt when it is absent or unknown.
  std::optional<std::string> value(const std::string& name) const;
  // False when the variable may be set from somewhere kubesim does not read.
  bool known(const std::string& name) const;
  // Whether the process sees it (shell variables that were not exported are not passed on).
  bool exported(const std::string& name) const { return m_exported.count(name) > 0; }

  void set(const std::string& name, std::string value, bool exported = true);
  void set_unknown(const std::string& name);
  void unset(const std::string& name);
  void mark_exported(const std::string& name);
  // The environment a command started from this shell gets: exported variables only.
  ContainerEnv exported_only() const;

 private:
  std::map<std::string, std::string> m_values;
  std::set<std::string> m_unknown;
  std::set<std::string> m_exported;
  bool m_open = false;  // envFrom: names not listed may be set
};

// Kubernetes' expansion of command, args and env values (kubelet's
// third_party/forked/golang/expansion/expand.go): $(NAME) of a defined variable becomes its
// value, an undefined one stays as written, $$ becomes $. *unknown is set when a referenced
// variable has an unknown value.
std::string expand_kubernetes(const std::string& text, const ContainerEnv& env, bool* unknown);

}  // namespace kubesim
