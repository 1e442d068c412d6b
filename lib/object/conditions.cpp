#include "object/conditions.h"

#include "object/fields.h"

namespace trainctl::object {

const nlohmann::json& find_condition(const nlohmann::json& conditions, std::string_view type) {
  static const nlohmann::json none;
  if (!conditions.is_array()) return none;
  for (const auto& c : conditions)
    if (str(c, "type") == type) return c;
  return none;
}

bool is_condition_true(const nlohmann::json& conditions, std::string_view type) {
  return str(find_condition(conditions, type), "status") == "True";
}

std::string true_since(const nlohmann::json& conditions, std::initializer_list<std::string_view> types) {
  if (!conditions.is_array()) return "";
  for (const auto& c : conditions)
    for (const std::string_view type : types)
      if (str(c, "type") == type && str(c, "status") == "True") return str(c, "lastTransitionTime");
  return "";
}

const nlohmann::json& condition(const nlohmann::json& obj, std::string_view type) {
  return find_condition(at_path(obj, {"status", "conditions"}), type);
}

bool condition_true(const nlohmann::json& obj, std::string_view type) {
  return is_condition_true(at_path(obj, {"status", "conditions"}), type);
}

}  // namespace trainctl::object
