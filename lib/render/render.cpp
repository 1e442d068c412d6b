#include "render/render.h"

#include <kainjow/mustache.hpp>

#include "core/errors.h"
#include "yaml/read.h"

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

std::vector<nlohmann::json> parse_yaml_stream(const std::string& source, const std::string& text) {
  std::vector<nlohmann::json> out;
  try {
    out = yaml::parse_all(text, "");
  } catch (const yaml::ParseError& e) {
    throw Error("template " + source + " did not render to valid YAML: " + e.what());
  }
  for (auto& j : out) prune_nulls(j);
  return out;
}

std::vector<nlohmann::json> render_objects(const std::string& source, const std::string& tmpl,
                                           const nlohmann::json& values) {
  return parse_yaml_stream(source, render_text(source, tmpl, values));
}

}  // namespace trainctl::render
