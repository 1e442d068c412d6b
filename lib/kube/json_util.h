// Null-safe reads of Kubernetes objects held as JSON: a missing key or a wrong type gives
// an empty value instead of throwing.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace trainctl::kube {

// obj[key], or a null value when obj is not an object or lacks key.
const nlohmann::json& at(const nlohmann::json& obj, std::string_view key);
// Walks a path of keys: at(at(at(obj, a), b), c).
const nlohmann::json& at_path(const nlohmann::json& obj, std::initializer_list<std::string_view> keys);
std::string str(const nlohmann::json& obj, std::string_view key);
std::string label(const nlohmann::json& obj, std::string_view key);       // metadata.labels[key]
std::string annotation(const nlohmann::json& obj, std::string_view key);  // metadata.annotations[key]
std::string name_of(const nlohmann::json& obj);                           // metadata.name
std::string namespace_of(const nlohmann::json& obj);                      // metadata.namespace
// The status.conditions entry of obj with that type, or a null value.
const nlohmann::json& condition(const nlohmann::json& obj, std::string_view type);
// Whether obj has a status.conditions entry of that type with status "True".
bool condition_true(const nlohmann::json& obj, std::string_view type);
// Whether obj's labels satisfy "k=v,k2=v2" (equality terms only; "k" alone = exists).
bool labels_match(const nlohmann::json& obj, std::string_view selector);

}  // namespace trainctl::kube
