#pragma once

#include <string>

namespace trainctl {

struct VersionInfo {
  std::string version;     // from CMake's project(VERSION)
  std::string git_commit;  // short hash, or "unknown" outside a checkout
  std::string git_tree_state;
  std::string build_type;
  std::string build_date;
  std::string compiler;
  std::string platform;
};

const VersionInfo& version_info();

}  // namespace trainctl
