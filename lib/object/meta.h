// An object's metadata: name, namespace, uid, labels and annotations (apimachinery's
// metav1.Object accessors), "" when absent or not a string.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace trainctl::object {

std::string name_of(const nlohmann::json& obj);                           // metadata.name
std::string namespace_of(const nlohmann::json& obj);                      // metadata.namespace
std::string uid_of(const nlohmann::json& obj);                            // metadata.uid
std::string label(const nlohmann::json& obj, std::string_view key);       // metadata.labels[key]
std::string annotation(const nlohmann::json& obj, std::string_view key);  // metadata.annotations[key]

// Whether obj's labels satisfy "k=v,k2=v2" (equality terms only; "k" alone = exists).
bool labels_match(const nlohmann::json& obj, std::string_view selector);
// Whether obj's labels hold every pair of selector (an empty selector matches every object;
// labels.SelectorFromSet of apimachinery's pkg/labels).
bool labels_contain(const nlohmann::json& obj, const std::map<std::string, std::string>& selector);

}  // namespace trainctl::object
