#include "kube/json_util.h"

namespace trainctl::kube {

const nlohmann::json& at(const nlohmann::json& obj, std::string_view key) {
  static const nlohmann::json empty;
  if (!obj.is_object()) return empty;
  auto it = obj.find(key);
  return it == obj.end() ? empty : *it;
}

const nlohmann::json& at_path(const nlohmann::json& obj, std::initializer_list<std::string_view> keys) {
  const nlohmann::json* cur = &obj;
  for (auto k : keys) cur = &at(*cur, k);
  return *cur;
}

std::string str(const nlohmann::json& obj, std::string_view key) {
  const auto& v = at(obj, key);
  return v.is_string() ? v.get<std::string>() : std::string();
}

const nlohmann::json& condition(const nlohmann::json& obj, std::string_view type) {
  static const nlohmann::json empty;
  for (const auto& c : at_path(obj, {"status", "conditions"}))
    if (str(c, "type") == type) return c;
  return empty;
}

bool condition_true(const nlohmann::json& obj, std::string_view type) {
  return str(condition(obj, type), "status") == "True";
}

std::string label(const nlohmann::json& obj, std::string_view key) {
  return str(at_path(obj, {"metadata", "labels"}), key);
}

std::string annotation(const nlohmann::json& obj, std::string_view key) {
  return str(at_path(obj, {"metadata", "annotations"}), key);
}

std::string name_of(const nlohmann::json& obj) { return str(at(obj, "metadata"), "name"); }
std::string namespace_of(const nlohmann::json& obj) { return str(at(obj, "metadata"), "namespace"); }

bool labels_match(const nlohmann::json& obj, std::string_view selector) {
  const auto& labels = at_path(obj, {"metadata", "labels"});
  while (!selector.empty()) {
    size_t comma = selector.find(',');
    std::string_view term = selector.substr(0, comma);
    selector = comma == std::string_view::npos ? std::string_view() : selector.substr(comma + 1);
    if (term.empty()) continue;
    size_t eq = term.find('=');
    if (eq == std::string_view::npos) {
      if (at(labels, term).is_null()) return false;
      continue;
    }
    if (str(labels, term.substr(0, eq)) != term.substr(eq + 1) || !at(labels, term.substr(0, eq)).is_string())
      return false;
  }
  return true;
}

}  // namespace trainctl::kube
