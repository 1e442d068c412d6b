// Checking values against schema nodes: types, enum, bounds, lengths, patterns, required
// fields, anyOf/oneOf, list types, and unknown fields.
#include "schema/validator.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace trainctl::schema {

namespace {

bool is_integral(const nlohmann::json& v) {
  if (v.is_number_integer()) return true;
  if (!v.is_number_float()) return false;
  double d = v.get<double>();
  return std::isfinite(d) && std::floor(d) == d;
}

bool matches_type(const nlohmann::json& v, const std::string& type) {
  if (type == "object") return v.is_object();
  if (type == "array") return v.is_array();
  if (type == "string") return v.is_string();
  if (type == "boolean") return v.is_boolean();
  if (type == "integer") return is_integral(v);
  if (type == "number") return v.is_number();
  return true;  // unknown type names do not constrain
}

std::string render_number(double d) {
  if (std::isfinite(d) && std::floor(d) == d && std::fabs(d) < 1e18) {
    return std::to_string(static_cast<long long>(d));
  }
  return nlohmann::json(d).dump();
}

std::size_t utf8_length(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80 ? 1 : 0;
  return n;
}

// RFC 3339 and the ISO 8601 forms go-openapi's strfmt.DateTime also parses.
bool is_date_time(const std::string& s) {
  static const std::regex re(
      "^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]+)?)?"
      "([Zz]|[+-][0-9]{2}:?[0-9]{2})?$");
  return std::regex_match(s, re);
}

bool is_null_dropped(const nlohmann::json& v, const SchemaNode* n) {
  return v.is_null() && !Effective(n).nullable;
}

}  // namespace

std::string json_type_name(const nlohmann::json& v) {
  if (v.is_null()) return "null";
  if (v.is_boolean()) return "boolean";
  if (v.is_number()) return is_integral(v) ? "integer" : "number";
  if (v.is_string()) return "string";
  if (v.is_array()) return "array";
  return "object";
}

std::string render_value(const nlohmann::json& v) {
  if (v.is_null()) return "\"null\"";
  if (v.is_number_float()) return render_number(v.get<double>());
  return v.dump();
}

Validator::Validator(Mode mode, ValidationResult& result, bool report_unknown, std::string path)
    : m_mode(mode), m_result(result), m_report_unknown(report_unknown), m_path(std::move(path)) {}

std::string Validator::body_path() const {
  return (m_path.empty() ? std::string("body") : m_path) + " in body";
}

std::string Validator::child(const std::string& key) const {
  return m_path.empty() ? key : m_path + "." + key;
}

void Validator::add(const std::string& field, const char* reason, std::string message) {
  m_result.causes.push_back(StatusCause{reason, std::move(message), field});
}

void Validator::invalid(const nlohmann::json& value, const std::string& detail) {
  add(m_path, kReasonInvalid, "Invalid value: " + render_value(value) + ": " + detail);
}

void Validator::unknown(const std::string& field) {
  if (!m_report_unknown) return;
  m_result.unknown_fields.push_back(field);
  if (m_mode == Mode::Strict) add(field, kReasonUnknown, "unknown field \"" + field + "\"");
}

void Validator::check_resource(const nlohmann::json& obj, const SchemaNode* root, const std::string& kind) {
  if (!obj.is_object()) {
    check(obj, root);
    return;
  }
  Effective e(root);
  for (const SchemaNode* n : e.nodes) check_keywords(obj, *n);
  check_fields(obj, e, true, true);
  if (auto it = obj.find("metadata"); it != obj.end() && it->is_object()) {
    check_object_meta(*it, kind, m_result.causes);
  }
}

void Validator::check(const nlohmann::json& v, const SchemaNode* n) {
  Effective e(n);
  if (v.is_null()) {
    if (!e.nullable && !e.type.empty()) {
      add(m_path, kReasonTypeInvalid,
          "Invalid value: \"null\": " + body_path() + " must be of type " + e.type + ": \"null\"");
    }
    return;
  }
  if (e.int_or_string) {
    if (!is_integral(v) && !v.is_string()) {
      std::string got = json_type_name(v);
      add(m_path, kReasonTypeInvalid,
          "Invalid value: \"" + got + "\": " + body_path() + " must be of type integer,string: \"" + got +
              "\"");
      return;
    }
  } else if (!e.type.empty() && !matches_type(v, e.type)) {
    std::string got = json_type_name(v);
    add(m_path, kReasonTypeInvalid,
        "Invalid value: \"" + got + "\": " + body_path() + " must be of type " + e.type + ": \"" + got +
            "\"");
    return;
  }
  for (const SchemaNode* node : e.nodes) check_keywords(v, *node);
  if (v.is_object()) check_fields(v, e, e.embedded, false);
  if (v.is_array()) check_items(v, e);
}

void Validator::check_keywords(const nlohmann::json& v, const SchemaNode& n) {
  if (n.has_enum && std::find(n.enum_values.begin(), n.enum_values.end(), v) == n.enum_values.end()) {
    std::string supported;
    for (const auto& allowed : n.enum_values) {
      if (!supported.empty()) supported.append(", ");
      if (allowed.is_string()) {
        supported.append(allowed.dump());
      } else {
        supported.append(1, '"').append(render_value(allowed)).append(1, '"');
      }
    }
    add(m_path, kReasonNotSupported,
        "Unsupported value: " + render_value(v) + ": supported values: " + supported);
  }
  if (v.is_number()) {
    double d = v.get<double>();
    if (n.minimum && (n.exclusive_minimum ? d <= *n.minimum : d < *n.minimum)) {
      invalid(v, body_path() + " should be greater than " + (n.exclusive_minimum ? "" : "or equal to ") +
                     render_number(*n.minimum));
    }
    if (n.maximum && (n.exclusive_maximum ? d >= *n.maximum : d > *n.maximum)) {
      invalid(v, body_path() + " should be less than " + (n.exclusive_maximum ? "" : "or equal to ") +
                     render_number(*n.maximum));
    }
  }
  if (v.is_string()) {
    const auto& s = v.get_ref<const std::string&>();
    auto length = static_cast<std::int64_t>(utf8_length(s));
    if (n.max_length && length > *n.max_length) {
      add(m_path, kReasonTooLong, "Too long: may not be longer than " + std::to_string(*n.max_length));
    }
    if (n.min_length && length < *n.min_length) {
      invalid(v, body_path() + " should be at least " + std::to_string(*n.min_length) + " chars long");
    }
    if (n.date_time && !is_date_time(s)) {
      add(m_path, kReasonTypeInvalid,
          "Invalid value: " + render_value(v) + ": " + body_path() +
              " must be of type date-time: " + render_value(v));
    }
    if (n.pattern_re && !std::regex_search(s, *n.pattern_re)) {
      invalid(v, body_path() + " should match '" + n.pattern + "'");
    }
  }
  if (v.is_array()) {
    auto count = static_cast<std::int64_t>(v.size());
    if (n.max_items && count > *n.max_items) {
      add(m_path, kReasonTooMany,
          "Too many: " + std::to_string(count) + ": must have at most " + std::to_string(*n.max_items) +
              " items");
    }
    if (n.min_items && count < *n.min_items) {
      invalid(v, body_path() + " should have at least " + std::to_string(*n.min_items) + " items");
    }
    check_list(v, n);
  }
  if (v.is_object()) {
    for (const auto& name : n.required) {
      auto it = v.find(name);
      const SchemaNode* prop = n.property(name);
      bool dropped = it != v.end() && prop != nullptr && is_null_dropped(*it, prop);
      if (it == v.end() || dropped) add(child(name), kReasonRequired, "Required value");
    }
  }
  check_combinators(v, n);
}

void Validator::check_combinators(const nlohmann::json& v, const SchemaNode& n) {
  if (!n.any_of.empty()) {
    bool any = false;
    for (const SchemaNode* branch : n.any_of) any = any || branch_ok(v, branch);
    if (!any) invalid(v, body_path() + " must validate at least one schema (anyOf)");
  }
  if (!n.one_of.empty()) {
    int passing = 0;
    for (const SchemaNode* branch : n.one_of) passing += branch_ok(v, branch) ? 1 : 0;
    if (passing != 1) invalid(v, body_path() + " must validate one and only one schema (oneOf)");
  }
}

void Validator::check_list(const nlohmann::json& v, const SchemaNode& n) {
  if (n.list_type != "set" && n.list_type != "map") return;
  std::set<std::string> seen;
  for (std::size_t i = 0; i < v.size(); ++i) {
    nlohmann::json key = v[i];
    if (n.list_type == "map") {
      if (!v[i].is_object()) continue;
      key = nlohmann::json::object();
      for (const auto& k : n.list_map_keys) {
        if (auto it = v[i].find(k); it != v[i].end()) key[k] = *it;
      }
    }
    if (!seen.insert(key.dump()).second) {
      add(m_path + "[" + std::to_string(i) + "]", kReasonDuplicate, "Duplicate value: " + render_value(key));
    }
  }
}

bool Validator::branch_ok(const nlohmann::json& v, const SchemaNode* branch) const {
  ValidationResult scratch;
  Validator sub(Mode::Ignore, scratch, false, m_path);
  sub.check(v, branch);
  return scratch.causes.empty();
}

void Validator::check_fields(const nlohmann::json& v, const Effective& e, bool resource, bool root) {
  for (const auto& [key, val] : v.items()) {
    const std::string saved = m_path;
    m_path = child(key);
    const SchemaNode* prop = e.property(key);
    if (resource && key == "metadata" && (root || prop == nullptr)) {
      if (!val.is_null()) check(val, object_meta_schema());
    } else if (prop != nullptr) {
      if (!is_null_dropped(val, prop)) check(val, prop);
    } else if (resource && (key == "apiVersion" || key == "kind")) {
      if (!val.is_string()) {
        std::string got = json_type_name(val);
        add(m_path, kReasonTypeInvalid,
            "Invalid value: \"" + got + "\": " + m_path + " in body must be of type string: \"" + got + "\"");
      }
    } else if (e.additional != nullptr) {
      if (!is_null_dropped(val, e.additional)) check(val, e.additional);
    } else if (!e.keeps_unknown()) {
      unknown(m_path);
    }
    m_path = saved;
  }
}

void Validator::check_items(const nlohmann::json& v, const Effective& e) {
  if (e.items == nullptr) return;
  const std::string saved = m_path;
  for (std::size_t i = 0; i < v.size(); ++i) {
    m_path = saved + "[" + std::to_string(i) + "]";
    check(v[i], e.items);
  }
  m_path = saved;
}

}  // namespace trainctl::schema
