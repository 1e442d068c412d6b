// What ValidateObjectMeta checks beyond types: a name (or generateName), the name's DNS
// format for the kind, and label values.
#include <regex>

#include "schema/validator.h"

namespace trainctl::schema {

namespace {

const char* const kSubdomainMessage =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' "
    "or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex "
    "used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const char* const kLabel1035Message =
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
    "alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or "
    "'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const char* const kLabel1123Message =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and "
    "must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex "
    "used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const char* const kLabelValueMessage =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or "
    "'my_value',  or '12345', regex used for validation is "
    "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

struct NameRule {
  std::regex re;
  std::size_t max;
  const char* message;
};

const NameRule& rule_for(const std::string& kind) {
  static const NameRule subdomain{
      std::regex("^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$"), 253,
      kSubdomainMessage};
  static const NameRule label1035{std::regex("^[a-z]([-a-z0-9]*[a-z0-9])?$"), 63, kLabel1035Message};
  static const NameRule label1123{std::regex("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"), 63, kLabel1123Message};
  if (kind == "Service") return label1035;
  if (kind == "Namespace") return label1123;
  return subdomain;
}

void invalid(std::vector<StatusCause>& causes, const std::string& field, const std::string& value,
             const std::string& detail) {
  causes.push_back(
      StatusCause{kReasonInvalid, "Invalid value: " + nlohmann::json(value).dump() + ": " + detail, field});
}

void check_name(const std::string& name, const std::string& kind, std::vector<StatusCause>& causes) {
  const NameRule& rule = rule_for(kind);
  if (name.size() > rule.max) {
    invalid(causes, "metadata.name", name,
            "must be no more than " + std::to_string(rule.max) + " characters");
  }
  if (!std::regex_match(name, rule.re)) invalid(causes, "metadata.name", name, rule.message);
}

void check_labels(const nlohmann::json& labels, std::vector<StatusCause>& causes) {
  static const std::regex value_re("^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$");
  for (const auto& [key, value] : labels.items()) {
    if (!value.is_string()) continue;  // reported by the type check
    const auto& text = value.get_ref<const std::string&>();
    if (text.size() > 63) {
      invalid(causes, "metadata.labels", text, "must be no more than 63 characters");
    }
    if (!std::regex_match(text, value_re)) {
      invalid(causes, "metadata.labels", text, kLabelValueMessage);
    }
  }
}

}  // namespace

void check_object_meta(const nlohmann::json& meta, const std::string& kind,
                       std::vector<StatusCause>& causes) {
  auto name = meta.find("name");
  auto generate = meta.find("generateName");
  bool has_name = name != meta.end() && name->is_string() && !name->get<std::string>().empty();
  bool has_generate =
      generate != meta.end() && generate->is_string() && !generate->get<std::string>().empty();
  if (!has_name && !has_generate) {
    causes.push_back(
        StatusCause{kReasonRequired, "Required value: name or generateName is required", "metadata.name"});
  } else if (has_name) {
    check_name(name->get<std::string>(), kind, causes);
  }
  if (auto labels = meta.find("labels"); labels != meta.end() && labels->is_object()) {
    check_labels(*labels, causes);
  }
}

}  // namespace trainctl::schema
