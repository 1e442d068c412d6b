// Small text helpers shared by trainctl and kubesim.
#pragma once

#include <cctype>
#include <string>
#include <string_view>

namespace trainctl {

// ASCII lower case (Kubernetes names, kinds and header names are ASCII).
inline std::string ascii_lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The text without leading and trailing white space (space, tab, CR, LF, VT, FF), as Go's
// strings.TrimSpace leaves ASCII text: token files, header values, selector terms.
inline std::string trim(std::string_view text) {
  size_t b = 0;
  size_t e = text.size();
  while (b < e && std::isspace(static_cast<unsigned char>(text[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(text[e - 1]))) --e;
  return std::string(text.substr(b, e - b));
}

}  // namespace trainctl
