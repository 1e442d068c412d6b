#include "object/fields.h"

namespace trainctl::object {

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

}  // namespace trainctl::object
