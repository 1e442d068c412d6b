#include "object/meta.h"

#include "object/fields.h"

namespace trainctl::object {

std::string name_of(const nlohmann::json& obj) { return str(at(obj, "metadata"), "name"); }
std::string namespace_of(const nlohmann::json& obj) { return str(at(obj, "metadata"), "namespace"); }
std::string uid_of(const nlohmann::json& obj) { return str(at(obj, "metadata"), "uid"); }

std::string label(const nlohmann::json& obj, std::string_view key) {
  return str(at_path(obj, {"metadata", "labels"}), key);
}

std::string annotation(const nlohmann::json& obj, std::string_view key) {
  return str(at_path(obj, {"metadata", "annotations"}), key);
}

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

bool labels_contain(const nlohmann::json& obj, const std::map<std::string, std::string>& selector) {
  const auto& labels = at_path(obj, {"metadata", "labels"});
  for (const auto& [key, value] : selector) {
    const auto& v = at(labels, key);
    if (!v.is_string() || v.get_ref<const std::string&>() != value) return false;
  }
  return true;
}

}  // namespace trainctl::object
