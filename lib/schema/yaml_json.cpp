// YAML -> JSON with YAML 1.2 core schema resolution of plain scalars.
#include "schema/yaml_json.h"

#include <yaml-cpp/yaml.h>

#include <charconv>
#include <cmath>
#include <limits>
#include <regex>

#include "core/errors.h"

namespace trainctl::schema {

namespace {

bool is_null_word(const std::string& s) {
  return s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL";
}

std::optional<bool> bool_word(const std::string& s) {
  if (s == "true" || s == "True" || s == "TRUE") return true;
  if (s == "false" || s == "False" || s == "FALSE") return false;
  return std::nullopt;
}

std::optional<nlohmann::json> integer_word(const std::string& s) {
  static const std::regex decimal("^[-+]?[0-9]+$");
  static const std::regex octal("^0o[0-7]+$");
  static const std::regex hex("^0x[0-9a-fA-F]+$");
  int base = 10;
  std::size_t skip = 0;
  if (std::regex_match(s, octal)) {
    base = 8;
    skip = 2;
  } else if (std::regex_match(s, hex)) {
    base = 16;
    skip = 2;
  } else if (!std::regex_match(s, decimal)) {
    return std::nullopt;
  }
  std::string digits = s.substr(skip);
  if (!digits.empty() && digits.front() == '+') digits.erase(0, 1);
  const char* end = digits.data() + digits.size();
  std::int64_t i = 0;
  if (auto r = std::from_chars(digits.data(), end, i, base); r.ec == std::errc() && r.ptr == end) {
    return nlohmann::json(i);
  }
  std::uint64_t u = 0;
  if (auto r = std::from_chars(digits.data(), end, u, base); r.ec == std::errc() && r.ptr == end) {
    return nlohmann::json(u);
  }
  return nlohmann::json(std::strtod(digits.c_str(), nullptr));
}

std::optional<nlohmann::json> float_word(const std::string& s) {
  static const std::regex number("^[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?$");
  if (std::regex_match(s, number)) return nlohmann::json(std::strtod(s.c_str(), nullptr));
  // JSON has no infinities or NaN: keep those words as strings.
  return std::nullopt;
}

nlohmann::json plain_scalar(const std::string& s) {
  if (is_null_word(s)) return nullptr;
  if (auto b = bool_word(s)) return *b;
  const char first = s.front();
  if ((first >= '0' && first <= '9') || first == '-' || first == '+' || first == '.') {
    if (auto i = integer_word(s)) return *i;
    if (auto f = float_word(s)) return *f;
  }
  return s;
}

nlohmann::json tagged_scalar(const std::string& tag, const std::string& s) {
  if (tag == "tag:yaml.org,2002:null") return nullptr;
  if (tag == "tag:yaml.org,2002:bool") {
    if (auto b = bool_word(s)) return *b;
  }
  if (tag == "tag:yaml.org,2002:int") {
    if (auto i = integer_word(s)) return *i;
  }
  if (tag == "tag:yaml.org,2002:float") {
    if (auto f = float_word(s)) return *f;
  }
  return s;
}

}  // namespace

nlohmann::json yaml_to_json(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Undefined:
    case YAML::NodeType::Null:
      return nullptr;
    case YAML::NodeType::Scalar:
      if (node.Tag() == "?") return plain_scalar(node.Scalar());
      return tagged_scalar(node.Tag(), node.Scalar());
    case YAML::NodeType::Sequence: {
      nlohmann::json out = nlohmann::json::array();
      for (const auto& item : node) out.push_back(yaml_to_json(item));
      return out;
    }
    case YAML::NodeType::Map: {
      nlohmann::json out = nlohmann::json::object();
      for (const auto& entry : node) {
        out[entry.first.Scalar()] = yaml_to_json(entry.second);
      }
      return out;
    }
  }
  return nullptr;
}

std::vector<nlohmann::json> parse_yaml_documents(std::string_view text, const std::string& origin) {
  std::vector<nlohmann::json> out;
  try {
    for (const auto& doc : YAML::LoadAll(std::string(text))) {
      if (doc.IsNull() || !doc.IsDefined()) continue;
      out.push_back(yaml_to_json(doc));
    }
  } catch (const YAML::Exception& e) {
    throw ConfigError(origin + ": " + e.what());
  }
  return out;
}

nlohmann::json parse_yaml(std::string_view text, const std::string& origin) {
  try {
    return yaml_to_json(YAML::Load(std::string(text)));
  } catch (const YAML::Exception& e) {
    throw ConfigError(origin + ": " + e.what());
  }
}

}  // namespace trainctl::schema
