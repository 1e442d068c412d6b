// YAML to JSON conversion following the YAML 1.2 core schema: plain scalars become null,
// booleans, integers or floats when they look like one; quoted scalars stay strings.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace YAML {
class Node;
}

namespace trainctl::schema {

nlohmann::json yaml_to_json(const YAML::Node& node);

// One YAML (or JSON) document. Throws ConfigError("<origin>: <parser message>") when malformed.
nlohmann::json parse_yaml(std::string_view text, const std::string& origin = "<input>");

// Every non-empty document of a multi-document stream ("---" separated).
std::vector<nlohmann::json> parse_yaml_documents(std::string_view text,
                                                 const std::string& origin = "<input>");

}  // namespace trainctl::schema
