#include "render/render.h"

#include <yaml-cpp/yaml.h>

#include <kainjow/mustache.hpp>
#include <regex>

#include "core/errors.h"

namespace trainctl::render {

namespace mus = kainjow::mustache;

namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

mus::data to_data(const nlohmann::json& v);

mus::data object_data(const nlohmann::json& obj) {
  mus::data d{mus::data::type::object};
  for (const auto& [key, value] : obj.items()) {
    if (value.is_null()) continue;  // absent: a section is skipped, a variable renders empty
    if (ends_with(key, "_json")) {
      d.set(key, value.dump());
    } else {
      d.set(key, to_data(value));
    }
  }
  return d;
}

mus::data to_data(const nlohmann::json& v) {
  switch (v.type()) {
    case nlohmann::json::value_t::object:
      return object_data(v);
    case nlohmann::json::value_t::array: {
      mus::data list{mus::data::type::list};
      for (const auto& item : v) list.push_back(to_data(item));
      return list;
    }
    case nlohmann::json::value_t::boolean:
      return v.get<bool>() ? mus::data{mus::data::type::bool_true} : mus::data{mus::data::type::bool_false};
    case nlohmann::json::value_t::null:
      return mus::data{mus::data::type::bool_false};
    default:
      return mus::data{v.dump()};  // strings arrive quoted and escaped, numbers as digits
  }
}

// YAML 1.2 core schema resolution of plain scalars.
nlohmann::json plain_scalar(const std::string& s) {
  static const std::regex int_re("[-+]?[0-9]+");
  static const std::regex hex_re("0x[0-9a-fA-F]+");
  static const std::regex float_re("[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?");
  if (s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL") return nullptr;
  if (s == "true" || s == "True" || s == "TRUE") return true;
  if (s == "false" || s == "False" || s == "FALSE") return false;
  if (std::regex_match(s, int_re)) {
    try {
      return std::stoll(s);
    } catch (const std::out_of_range&) {
      return std::stod(s);
    }
  }
  if (std::regex_match(s, hex_re)) return std::stoll(s, nullptr, 16);
  if (std::regex_match(s, float_re)) return std::stod(s);
  return s;
}

void prune_nulls(nlohmann::json& v) {
  if (v.is_object()) {
    for (auto it = v.begin(); it != v.end();) {
      if (it->is_null()) {
        it = v.erase(it);
      } else {
        prune_nulls(*it);
        ++it;
      }
    }
  } else if (v.is_array()) {
    for (auto& item : v) prune_nulls(item);
  }
}

}  // namespace

std::string render_text(const std::string& source, const std::string& tmpl, const nlohmann::json& values) {
  mus::mustache m{tmpl};
  if (!m.is_valid()) throw Error("template " + source + ": " + m.error_message());
  m.set_custom_escape([](const std::string& s) { return s; });  // values are already encoded
  std::string out;
  try {
    out = m.render(object_data(values));
  } catch (const nlohmann::json::type_error& e) {  // dump() of a string that is not UTF-8
    const std::string what = e.what();
    throw UsageError("template " + source + ": a value is not valid UTF-8 text (" +
                     what.substr(what.find("] ") == std::string::npos ? 0 : what.find("] ") + 2) + ")");
  }
  if (!m.is_valid()) throw Error("template " + source + ": " + m.error_message());
  return out;
}

nlohmann::json yaml_to_json(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      return nullptr;
    case YAML::NodeType::Scalar:
      if (node.Tag() == "!") return node.Scalar();  // quoted: always a string
      return plain_scalar(node.Scalar());
    case YAML::NodeType::Sequence: {
      nlohmann::json arr = nlohmann::json::array();
      for (const auto& item : node) arr.push_back(yaml_to_json(item));
      return arr;
    }
    case YAML::NodeType::Map: {
      nlohmann::json obj = nlohmann::json::object();
      for (const auto& kv : node) obj[kv.first.as<std::string>()] = yaml_to_json(kv.second);
      return obj;
    }
  }
  return nullptr;
}

std::vector<nlohmann::json> parse_yaml_stream(const std::string& source, const std::string& text) {
  std::vector<YAML::Node> docs;
  try {
    docs = YAML::LoadAll(text);
  } catch (const YAML::Exception& e) {
    throw Error("template " + source + " did not render to valid YAML: " + e.what());
  }
  std::vector<nlohmann::json> out;
  for (const auto& d : docs) {
    nlohmann::json j = yaml_to_json(d);
    if (j.is_null()) continue;
    prune_nulls(j);
    out.push_back(std::move(j));
  }
  return out;
}

std::vector<nlohmann::json> render_objects(const std::string& source, const std::string& tmpl,
                                           const nlohmann::json& values) {
  return parse_yaml_stream(source, render_text(source, tmpl, values));
}

}  // namespace trainctl::render
