#include "yaml/write.h"

#include <yaml-cpp/yaml.h>

#include "yaml/scalar.h"

namespace trainctl::yaml {

namespace {

void emit_string(YAML::Emitter& e, const std::string& s) {
  if (needs_quotes(s)) e << YAML::DoubleQuoted;
  e << s;  // yaml-cpp quotes on its own what it cannot write plain
}

// A plain "<<" key is a merge key to the reader (go-yaml v2 isMerge), so that key is quoted;
// go-yaml's encoder, which does not check keys apart, would write it plain.
void emit_key(YAML::Emitter& e, const std::string& s) {
  if (s == "<<") e << YAML::DoubleQuoted;
  emit_string(e, s);
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
        emit_key(e, it.key());
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
