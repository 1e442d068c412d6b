#include "fixtures.h"

#include "support/paths.h"

namespace trainctl::schema::test {

const SchemaSet& real_schemas() {
  static const SchemaSet set = SchemaSet::load_dir(trainctl::testing::require_schema_dir());
  return set;
}

const StatusCause* cause_at(const ValidationResult& result, const std::string& field) {
  for (const auto& c : result.causes) {
    if (c.field == field) return &c;
  }
  return nullptr;
}

}  // namespace trainctl::schema::test
