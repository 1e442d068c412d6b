// Small text helpers shared by trainctl and kubesim.
#pragma once

#include <cctype>
#include <string>

namespace trainctl {

// ASCII lower case (Kubernetes names, kinds and header names are ASCII).
inline std::string ascii_lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace trainctl
