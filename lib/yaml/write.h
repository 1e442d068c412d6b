// JSON values -> YAML text with yaml-cpp's emitter, for --dry-run, -o yaml and generated
// kubeconfigs, written so that kubectl (go-yaml v2) and PyYAML read back every string byte for
// byte. A string is written double-quoted when kubectl's go-yaml v2 encoder quotes it
// (scalar.h go_yaml_quotes: read back plain it would not be that string, e.g. "true", "yes",
// "0x1F", "1e3", "", "null", "~", "2024-05-01T10:00:00Z", or it looks like a YAML 1.1 base 60
// number such as "1:20"), when PyYAML would not read it plain ("2024-02-30", "<<", "="), or
// when yaml-cpp cannot write it plain (leading or trailing spaces, ": ", " #", a leading
// indicator such as "- ", "*", "&", "!", "[", "{"). A string with a character YAML does not
// allow in a stream or reads as a line break (C0 controls, DEL, C1 controls with NEL, U+2028,
// U+2029, a BOM) is double-quoted with every such character, and every non-ASCII one, escaped
// (write.cpp style_of). Text that is not UTF-8, and the Unicode noncharacters, which yaml-cpp
// would silently replace, are refused (trainctl::Error). Map keys follow the same rules. Maps
// keep the key order of the value; numbers are written as JSON writes them; null is "~";
// empty maps and lists are "{}" and "[]"; lists are indented under their key.
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
