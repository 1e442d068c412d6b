// Label selectors (=, ==, !=, in, notin, exists, !key, >, <) and field selectors
// (metadata.name, metadata.namespace, spec.nodeName, status.phase, ... with =, ==, !=),
// parsed from the query string as kube-apiserver does. Parse errors throw StatusError 400.
#pragma once

#include <nlohmann/json.hpp>

#include "kubesim/field_values.h"
#include "kubesim/label_values.h"

#include <string>
#include <vector>

namespace kubesim {

struct Requirement {
  enum class Op { Equals, NotEquals, In, NotIn, Exists, DoesNotExist, GreaterThan, LessThan };
  std::string key;
  Op op = Op::Equals;
  std::vector<std::string> values;
};

class LabelSelector {
public:
  static LabelSelector parse(const std::string& text);  // "" selects everything
  bool matches(const nlohmann::json& labels) const;      // labels: object or null
  bool matches(const LabelValues& labels) const;         // as kept beside a stored object
  bool empty() const { return m_reqs.empty(); }
  const std::vector<Requirement>& requirements() const { return m_reqs; }

private:
  std::vector<Requirement> m_reqs;
};

class FieldSelector {
public:
  // Only =, == and != are allowed, as in kube-apiserver.
  static FieldSelector parse(const std::string& text);
  // By path in the object's JSON, for objects of no known kind.
  bool matches(const nlohmann::json& obj) const;
  bool empty() const { return m_reqs.empty(); }
  // Ties each requirement to its field's position among a kind's selectable fields
  // (selectable_fields.h). Returns the first field not among them (kube-apiserver refuses
  // it), or "".
  std::string bind(const std::vector<std::string>& selectable);
  // Against the values of a kind's selectable fields, after bind().
  bool matches(const FieldValues& values) const;

private:
  std::vector<Requirement> m_reqs;
  std::vector<std::vector<std::string>> m_paths;  // each requirement's key split at dots
  std::vector<bool> m_same_path;                  // the previous requirement's path
  std::vector<size_t> m_index;                    // each requirement's field position (bind)
};

// The value of a field path like "spec.nodeName" in obj ("" when absent).
std::string field_value(const nlohmann::json& obj, const std::string& path);

}  // namespace kubesim
