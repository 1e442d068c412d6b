// ValidationResult helpers and Schema::validate.
#include <algorithm>

#include "schema/schema.h"
#include "schema/validator.h"

namespace trainctl::schema {

ValidationResult Schema::validate(const nlohmann::json& obj, Mode mode) const {
  ValidationResult result;
  Validator validator(mode, result);
  validator.check_resource(obj, m_root, m_kind);
  std::stable_partition(result.causes.begin(), result.causes.end(),
                        [](const StatusCause& c) { return c.reason == kReasonUnknown; });
  return result;
}

std::vector<StatusCause> ValidationResult::schema_causes() const {
  std::vector<StatusCause> out;
  for (const auto& c : causes) {
    if (c.reason != kReasonUnknown) out.push_back(c);
  }
  return out;
}

bool ValidationResult::has_strict_errors() const {
  return std::any_of(causes.begin(), causes.end(),
                     [](const StatusCause& c) { return c.reason == kReasonUnknown; });
}

std::string ValidationResult::strict_error_message() const {
  std::string out;
  for (const auto& c : causes) {
    if (c.reason != kReasonUnknown) continue;
    out += out.empty() ? "strict decoding error: " : ", ";
    out += c.message;
  }
  return out;
}

std::vector<std::string> ValidationResult::warnings() const {
  std::vector<std::string> out;
  for (const auto& field : unknown_fields) out.push_back("unknown field \"" + field + "\"");
  return out;
}

std::string ValidationResult::invalid_message(const std::string& qualified_kind,
                                              const std::string& name) const {
  std::vector<std::string> parts;
  for (const auto& c : schema_causes()) {
    parts.push_back(c.field.empty() ? c.message : c.field + ": " + c.message);
  }
  std::string out = qualified_kind + " \"" + name + "\" is invalid: ";
  if (parts.size() == 1) return out + parts.front();
  out += "[";
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? ", " : "") + parts[i];
  return out + "]";
}

std::string ValidationResult::to_string() const {
  if (!schema_found) return "no schema for this apiVersion/kind\n";
  std::string out;
  for (const auto& c : causes) out += c.field + ": " + c.message + " (" + c.reason + ")\n";
  return out;
}

const CrdVersion* CrdInfo::storage_version() const {
  for (const auto& v : versions) {
    if (v.served && v.storage) return &v;
  }
  for (const auto& v : versions) {
    if (v.served) return &v;
  }
  return nullptr;
}

}  // namespace trainctl::schema
