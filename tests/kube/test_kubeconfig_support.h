// Helpers for the kubeconfig tests: fixture paths and an injected environment.
#pragma once

#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>

#include "kube/config.h"

namespace trainctl::kube::test {

inline std::string fixture(const std::string& relative) {
  return (std::filesystem::path(TRAINCTL_SOURCE_DIR) / "tests" / "fixtures" / "kubeconfig" / relative).string();
}

// LoadOptions whose environment is exactly `env` (nothing from the real process), and
// whose service-account directory does not exist unless a test sets one.
inline LoadOptions options_with_env(std::map<std::string, std::string> env) {
  LoadOptions o;
  o.getenv = [env = std::move(env)](const std::string& name) -> std::optional<std::string> {
    auto it = env.find(name);
    if (it == env.end()) return std::nullopt;
    return it->second;
  };
  o.service_account_dir = fixture("no-such-serviceaccount-dir");
  return o;
}

// The ConfigError message of loading `o`, or "(no error)".
inline std::string load_error(const LoadOptions& o) {
  try {
    load_rest_config(o);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

inline void write_text(const std::string& path, const std::string& text) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace trainctl::kube::test
