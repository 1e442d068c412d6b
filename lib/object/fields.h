// Null-safe reads of Kubernetes objects held as JSON: a missing key or a wrong type gives an
// empty value instead of throwing. lib/object depends on nlohmann::json only, so trainctl and
// kubesim read objects through the same few functions.
#pragma once

#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace trainctl::object {

// obj[key], or a null value when obj is not an object or lacks key.
const nlohmann::json& at(const nlohmann::json& obj, std::string_view key);
// Walks a path of keys: at(at(at(obj, a), b), c).
const nlohmann::json& at_path(const nlohmann::json& obj, std::initializer_list<std::string_view> keys);
// obj[key] when it is a string, else "".
std::string str(const nlohmann::json& obj, std::string_view key);

}  // namespace trainctl::object
