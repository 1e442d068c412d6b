// YAML text -> JSON values, as kubectl reads manifests and kubeconfigs: sigs.k8s.io/yaml's
// YAMLToJSON (yaml.go, v1.4.0) over its vendored go-yaml v2. yaml-cpp parses; this module
// gives the nodes their meaning:
//   - plain scalars resolve by scalar.h (yes/on -> true, 0x1F -> 31, 1_000 -> 1000, ~ -> null,
//     2001-12-14 stays a string); quoted and !-tagged scalars are strings; explicit !!int,
//     !!float, !!bool, !!null, !!str, !!binary tags are honoured ("cannot decode" otherwise)
//   - a float is the JSON number Go's encoding/json writes for it (1e3 -> 1000, an integer);
//     .inf and .nan have no JSON form and are an error, as json.Marshal's
//   - map keys become strings: 1 -> "1", 0x10 -> "16", yes -> "true", 1.5 -> "1.5"; a null,
//     list or map key is an error; a repeated key keeps its last value
//   - "<<" merges a map or a list of maps (earlier maps win) at its place in the mapping
// Anchors and aliases are followed; an alias inside its own anchor, or expansion past 100
// nodes a byte of text, is an error (go-yaml: "document contains excessive aliasing").
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/errors.h"

namespace trainctl::yaml {

// Text that is not YAML, or YAML with no JSON form. what() is
// "ORIGIN: line L, column C: DETAIL" (without the position when it is not known).
class ParseError : public ConfigError {
 public:
  ParseError(const std::string& origin, int line, int column, const std::string& detail);
  int line() const { return m_line; }  // 1-based; 0 when not known
  int column() const { return m_column; }
  const std::string& detail() const { return m_detail; }

 private:
  int m_line;
  int m_column;
  std::string m_detail;
};

// The first document of the text; null for empty text.
nlohmann::json parse(std::string_view text, const std::string& origin = "<input>");

// Every document of a "---" separated stream, leaving out empty (null) ones as kubectl does.
std::vector<nlohmann::json> parse_all(std::string_view text, const std::string& origin = "<input>");

}  // namespace trainctl::yaml
