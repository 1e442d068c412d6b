#include "support/ci.h"

#include <catch2/catch.hpp>

#include <cstdlib>

#include "support/paths.h"

namespace trainctl::testing {

bool in_ci() {
  const char* ci = std::getenv("CI");
  return ci && std::string(ci) == "true";
}

void unavailable(const std::string& what) {
  if (in_ci()) FAIL(what << " (CI=true: nothing may be skipped)");
  WARN(what << ": this part was not run");
}

std::optional<std::string> schema_dir_for_case() {
  auto dir = find_schema_dir();
  if (!dir)
    unavailable("no Kubernetes schemas (set TRAINCTL_SCHEMAS or run scripts/fetch-schemas.sh)");
  return dir;
}

}  // namespace trainctl::testing
