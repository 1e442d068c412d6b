// JSON values -> YAML text with yaml-cpp's emitter, for --dry-run, -o yaml and generated
// kubeconfigs. One quoting rule: a string is written double-quoted exactly when kubectl's
// go-yaml v2 encoder quotes it (scalar.h needs_quotes: read back plain it would not be that
// string, e.g. "true", "yes", "0x1F", "1e3", "", "null", "~", "2024-05-01T10:00:00Z", or it
// looks like a YAML 1.1 base 60 number such as "1:20"), or when yaml-cpp cannot write it
// plain (leading or trailing spaces, ": ", " #", line breaks, control characters, a leading
// indicator such as "- ", "*", "&", "!", "[", "{"), so that it reads back as the same string.
// Map keys follow the same rule, and "<<" (a merge key when plain) is quoted too. Maps keep
// the key order of the value; numbers are written as JSON writes them; null is "~"; empty
// maps and lists are "{}" and "[]"; lists are indented under their key.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace trainctl::yaml {

// One document, ending with a newline, without a leading "---".
std::string to_yaml(const nlohmann::json& value);
std::string to_yaml(const nlohmann::ordered_json& value);

// Documents separated by "---" lines, ending with a newline.
std::string to_yaml_stream(const std::vector<nlohmann::json>& documents);

}  // namespace trainctl::yaml
