// Internal: reading CustomResourceDefinition documents into CrdInfo and compiled schemas.
#pragma once

#include <string>
#include <vector>

#include "schema/schema.h"
#include "schema/schema_node.h"

namespace trainctl::schema {

struct LoadedCrd {
  CrdInfo info;
  // One compiled openAPIV3Schema per served version, parallel to the served versions.
  std::vector<std::pair<std::string, const SchemaNode*>> version_schemas;
};

// The CRDs in one file (several documents allowed; other kinds are ignored).
// Throws ConfigError naming `origin` when the file is malformed.
std::vector<LoadedCrd> load_crd_file(const std::string& path, NodeArena& arena, RegexCache& regexes);

}  // namespace trainctl::schema
