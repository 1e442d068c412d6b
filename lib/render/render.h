// Templates + values -> YAML text -> objects. Values are a JSON object; every string and
// number in it enters the template already JSON-encoded (a JSON scalar is valid YAML), so a
// value arrives in the parsed object byte for byte whatever it contains (quotes, newlines,
// ": ", "{{", "#", unicode). Booleans, lists and objects drive mustache sections; a key
// ending in "_json" is inserted as the JSON text of its whole value (a YAML flow node).
// Templates never see unencoded user text, and no YAML is written by hand.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace trainctl::render {

// Renders a mustache template with the values (see above). Throws Error naming `source`
// when the template does not parse.
std::string render_text(const std::string& source, const std::string& tmpl, const nlohmann::json& values);

// Parses a YAML stream ("---" separated) into JSON values as kubectl would read the text
// (yaml/read.h), dropping empty documents and null-valued mapping keys (so a template block
// whose values are all absent disappears). Throws Error naming `source` with the YAML
// parser's position on malformed text.
std::vector<nlohmann::json> parse_yaml_stream(const std::string& source, const std::string& text);

// render_text + parse_yaml_stream.
std::vector<nlohmann::json> render_objects(const std::string& source, const std::string& tmpl,
                                           const nlohmann::json& values);

}  // namespace trainctl::render
