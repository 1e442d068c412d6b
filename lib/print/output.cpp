#include "print/output.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <regex>

#include "core/errors.h"

namespace trainctl::print {

std::string output_name(OutputFormat f) {
  switch (f) {
    case OutputFormat::Table:
      return "table";
    case OutputFormat::Wide:
      return "wide";
    case OutputFormat::Json:
      return "json";
    case OutputFormat::Yaml:
      return "yaml";
    case OutputFormat::Name:
      return "name";
  }
  return "";
}

OutputFormat parse_output(std::string_view text, std::initializer_list<OutputFormat> allowed) {
  if (text.empty()) return OutputFormat::Table;
  for (auto a : allowed)
    if (text == output_name(a)) return a;
  std::string names;
  for (auto a : allowed) names += (names.empty() ? "" : "|") + output_name(a);
  throw UsageError("unknown output format \"" + std::string(text) + "\": use " + names);
}

std::string to_json(const nlohmann::ordered_json& value) {
  return value.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

namespace {

// True when a plain scalar with this text would load as something other than a string.
bool needs_quotes(const std::string& s) {
  if (s.empty()) return true;
  std::string lower(s);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  static const char* const words[] = {"null", "~", "true", "false", "yes", "no", "on", "off", "y", "n"};
  for (const char* w : words)
    if (lower == w) return true;
  static const std::regex number(
      R"([-+]?(\.[0-9]+|[0-9][0-9_]*(\.[0-9_]*)?)([eE][-+]?[0-9]+)?|0x[0-9a-fA-F]+|0o[0-7]+|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN))");
  return std::regex_match(s, number);
}

void emit(YAML::Emitter& out, const nlohmann::ordered_json& v) {
  switch (v.type()) {
    case nlohmann::ordered_json::value_t::object:
      out << YAML::BeginMap;
      for (auto it = v.begin(); it != v.end(); ++it) {
        out << YAML::Key;
        if (needs_quotes(it.key())) out << YAML::DoubleQuoted;
        out << it.key() << YAML::Value;
        emit(out, it.value());
      }
      out << YAML::EndMap;
      break;
    case nlohmann::ordered_json::value_t::array:
      out << YAML::BeginSeq;
      for (const auto& e : v) emit(out, e);
      out << YAML::EndSeq;
      break;
    case nlohmann::ordered_json::value_t::string: {
      const auto& s = v.get_ref<const std::string&>();
      if (needs_quotes(s)) out << YAML::DoubleQuoted;
      out << s;
      break;
    }
    case nlohmann::ordered_json::value_t::boolean:
      out << (v.get<bool>() ? "true" : "false");
      break;
    case nlohmann::ordered_json::value_t::null:
      out << YAML::Null;
      break;
    default:  // numbers
      out << v.dump();
      break;
  }
}

}  // namespace

std::string to_yaml(const nlohmann::ordered_json& value) {
  YAML::Emitter out;
  out.SetIndent(2);
  emit(out, value);
  std::string text = out.c_str();
  if (text.empty() || text.back() != '\n') text += '\n';
  return text;
}

}  // namespace trainctl::print
