#include "render/emit.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>

namespace trainctl::render {

namespace {

// Would a plain scalar with this text be read back as something other than this string
// (by YAML 1.1 or 1.2 readers)? Then it is written double-quoted.
bool needs_quotes(const std::string& s) {
  if (s.empty()) return true;
  const unsigned char c = static_cast<unsigned char>(s[0]);
  if (std::isdigit(c) || c == '+' || c == '-' || c == '.' || c == '~') return true;
  std::string lower(s);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char ch) { return std::tolower(ch); });
  static const char* const words[] = {"true", "false", "yes",  "no",  "on", "off",
                                      "y",    "n",     "null", "nan", "inf"};
  return std::any_of(std::begin(words), std::end(words), [&](const char* w) { return lower == w; });
}

void emit_string(YAML::Emitter& e, const std::string& s) {
  if (needs_quotes(s)) {
    e << YAML::DoubleQuoted << s;
  } else {
    e << s;
  }
}

void emit(YAML::Emitter& e, const nlohmann::json& v) {
  switch (v.type()) {
    case nlohmann::json::value_t::object:
      if (v.empty()) {
        e << YAML::Flow << YAML::BeginMap << YAML::EndMap;
        return;
      }
      e << YAML::BeginMap;
      for (const auto& [key, value] : v.items()) {
        e << YAML::Key;
        emit_string(e, key);
        e << YAML::Value;
        emit(e, value);
      }
      e << YAML::EndMap;
      return;
    case nlohmann::json::value_t::array:
      if (v.empty()) {
        e << YAML::Flow << YAML::BeginSeq << YAML::EndSeq;
        return;
      }
      e << YAML::BeginSeq;
      for (const auto& item : v) emit(e, item);
      e << YAML::EndSeq;
      return;
    case nlohmann::json::value_t::string:
      emit_string(e, v.get<std::string>());
      return;
    case nlohmann::json::value_t::boolean:
      e << (v.get<bool>() ? "true" : "false");
      return;
    case nlohmann::json::value_t::null:
      e << YAML::Null;
      return;
    default:
      e << v.dump();  // numbers: JSON digits are YAML numbers
      return;
  }
}

}  // namespace

std::string to_yaml(const nlohmann::json& value) {
  YAML::Emitter e;
  e.SetIndent(2);
  e.SetSeqFormat(YAML::Block);
  emit(e, value);
  return e.c_str();
}

std::string to_yaml_stream(const std::vector<nlohmann::json>& documents) {
  std::string out;
  for (size_t i = 0; i < documents.size(); ++i) {
    if (i > 0) out += "---\n";
    out += to_yaml(documents[i]);
    if (out.empty() || out.back() != '\n') out += '\n';
  }
  return out;
}

}  // namespace trainctl::render
