// Shared fixtures of the schema tests: the real schema set, loaded once, and YAML helpers.
#pragma once

#include <string>

#include "schema/schema.h"
#include "yaml/read.h"

namespace trainctl::schema::test {

// The real schemas (crds + newest openapi); skips the test binary (exit 77) without them.
const SchemaSet& real_schemas();

// The cause whose field is `field`; nullptr when there is none.
const StatusCause* cause_at(const ValidationResult& result, const std::string& field);

inline nlohmann::json yaml(const std::string& text) { return yaml::parse(text, "test"); }

}  // namespace trainctl::schema::test
