#include "yaml/write.h"

#include <yaml-cpp/yaml.h>

#include <cstdio>

#include "core/errors.h"
#include "core/utf8.h"
#include "yaml/scalar.h"

namespace trainctl::yaml {

namespace {

std::string hex(char32_t cp) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04X", static_cast<unsigned>(cp));
  return buf;
}

// How a string must be written so that go-yaml (kubectl, kube-apiserver) and PyYAML read it
// back byte for byte.
enum class Style { Auto, Escaped };

// YAML 1.1 and 1.2 allow in a stream only TAB, LF, CR, 0x20-0x7E, NEL, 0xA0-0xD7FF,
// 0xE000-0xFFFD and 0x10000-0x10FFFF (go-yaml v2 readerc.go yaml_parser_update_buffer:
// anything else is "control characters are not allowed"; PyYAML reader.py NON_PRINTABLE),
// and read CR, NEL, U+2028 and U+2029 as line breaks (yamlprivateh.go is_break), which a
// plain or quoted scalar folds into a space or drops. go-yaml's emitter therefore writes
// every string with a character that is not printable (is_printable: not even TAB or NEL), a
// BOM or a line break double-quoted, each such character as an escape (emitterc.go
// yaml_emitter_analyze_scalar, yaml_emitter_write_double_quoted_scalar; go-yaml v2.4.0).
// yaml-cpp 0.7 writes CR, DEL, U+2028 and U+2029 raw, even inside double quotes: those
// strings are written double-quoted with every non-ASCII character escaped (\x7f, \u2028).
// yaml-cpp replaces what it cannot encode (invalid UTF-8, the noncharacters U+FDD0-U+FDEF and
// U+xFFFE/U+xFFFF) with U+FFFD, a silent change: such strings are refused.
Style style_of(std::string_view s) {
  Style style = Style::Auto;
  for (size_t i = 0, len = 1; i < s.size(); i += len) {
    char32_t cp = 0;
    if ((len = decode_utf8(s, i, cp)) == 0)
      throw Error("a value is not valid UTF-8 (byte " + std::to_string(i) +
                  "): Kubernetes objects hold UTF-8 text only");
    if ((cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFE) == 0xFFFE)
      throw Error("a value holds the Unicode noncharacter U+" + hex(cp) + " (byte " + std::to_string(i) +
                  "), which YAML cannot carry here; use -o json");
    if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029 || cp == 0xFEFF)
      style = Style::Escaped;
  }
  return style;
}

void emit_string(YAML::Emitter& e, const std::string& s) {
  if (style_of(s) == Style::Escaped) e << YAML::DoubleQuoted << YAML::EscapeNonAscii;
  else if (needs_quotes(s)) e << YAML::DoubleQuoted;
  e << s;  // yaml-cpp quotes on its own what it cannot write plain
}


template <typename Json>
void emit(YAML::Emitter& e, const Json& v) {
  switch (v.type()) {
    case Json::value_t::object:
      if (v.empty()) {
        e << YAML::Flow << YAML::BeginMap << YAML::EndMap;
        return;
      }
      e << YAML::BeginMap;
      for (auto it = v.begin(); it != v.end(); ++it) {
        e << YAML::Key;
        emit_string(e, it.key());  // "<<" quoted: a plain one is a merge key (go-yaml isMerge)
        e << YAML::Value;
        emit(e, it.value());
      }
      e << YAML::EndMap;
      return;
    case Json::value_t::array:
      if (v.empty()) {
        e << YAML::Flow << YAML::BeginSeq << YAML::EndSeq;
        return;
      }
      e << YAML::BeginSeq;
      for (const auto& item : v) emit(e, item);
      e << YAML::EndSeq;
      return;
    case Json::value_t::string:
      emit_string(e, v.template get_ref<const std::string&>());
      return;
    case Json::value_t::boolean:
      e << (v.template get<bool>() ? "true" : "false");
      return;
    case Json::value_t::null:
      e << YAML::Null;
      return;
    default:
      e << v.dump();  // numbers: JSON digits are YAML numbers
      return;
  }
}

template <typename Json>
std::string document(const Json& value) {
  YAML::Emitter e;
  e.SetIndent(2);
  emit(e, value);
  std::string text = e.c_str();
  if (text.empty() || text.back() != '\n') text += '\n';
  return text;
}

}  // namespace

std::string to_yaml(const nlohmann::json& value) { return document(value); }

std::string to_yaml(const nlohmann::ordered_json& value) { return document(value); }

std::string to_yaml_stream(const std::vector<nlohmann::json>& documents) {
  std::string out;
  for (size_t i = 0; i < documents.size(); ++i) {
    if (i > 0) out += "---\n";
    out += document(documents[i]);
  }
  return out;
}

}  // namespace trainctl::yaml
