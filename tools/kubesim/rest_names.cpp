// Object names: the DNS-1123 and DNS-1035 formats of apimachinery pkg/util/validation.
#include "kubesim/rest.h"

#include <regex>

namespace kubesim {

namespace {

// A name format of apimachinery pkg/util/validation/validation.go (IsDNS1123Subdomain,
// IsDNS1123Label, IsDNS1035Label): MaxLenError past max_len, else RegexError's message.
struct NameFormat {
  size_t max_len;
  std::string pattern, rule;
  std::vector<std::string> examples;
  std::regex re{pattern};
  std::string check(const std::string& v) const {
    if (v.size() > max_len) return "must be no more than " + std::to_string(max_len) + " characters";
    if (std::regex_match(v, re)) return "";
    std::string msg = rule + " (e.g. ";
    for (size_t i = 0; i < examples.size(); ++i) msg += (i ? " or '" : "'") + examples[i] + "', ";
    return msg + "regex used for validation is '" + pattern + "')";
  }
};

}  // namespace

std::string check_dns_subdomain(const std::string& v) {
  static const NameFormat f{
      253,
      "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*",
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, "
      "'-' or '.', and must start and end with an alphanumeric character",
      {"example.com"}};
  return f.check(v);
}

std::string check_dns_label(const std::string& v) {
  static const NameFormat f{
      63,
      "[a-z0-9]([-a-z0-9]*[a-z0-9])?",
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', "
      "and must start and end with an alphanumeric character",
      {"my-name", "123-abc"}};
  return f.check(v);
}

std::string check_dns1035_label(const std::string& v) {
  static const NameFormat f{
      63,
      "[a-z]([-a-z0-9]*[a-z0-9])?",
      "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start "
      "with an alphabetic character, and end with an alphanumeric character",
      {"my-name", "abc-123"}};
  return f.check(v);
}

}  // namespace kubesim
