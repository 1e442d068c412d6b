// JSON objects -> YAML text with yaml-cpp's emitter (for --dry-run and -o yaml). Strings that
// a YAML reader would take for another type ("true", "1", "", "null", "0x1F"...) are quoted,
// so `kubectl apply -f -` reads back exactly the objects trainctl built.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace trainctl::render {

// One document, without a leading "---".
std::string to_yaml(const nlohmann::json& value);

// A stream: documents separated by "---" lines, ending with a newline.
std::string to_yaml_stream(const std::vector<nlohmann::json>& documents);

}  // namespace trainctl::render
