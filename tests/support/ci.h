// What a test case does when something it needs is missing on this machine: under CI=true
// (scripts/test.sh in CI) nothing may be skipped, so the case fails; elsewhere it warns.
#pragma once

#include <optional>
#include <string>

namespace trainctl::testing {

// CI=true in the environment.
bool in_ci();

// The case cannot run here for want of `what` ("kubectl is not installed"): FAIL under
// CI=true, else WARN; the caller returns.
void unavailable(const std::string& what);

// The schema directory (find_schema_dir), or nullopt after unavailable(...).
std::optional<std::string> schema_dir_for_case();

}  // namespace trainctl::testing
