#include "kubesim/server_startup.h"

#include "schema/schema.h"

#include <iostream>
#include <stdexcept>

namespace kubesim {

Validator make_schema_validator(const std::string& dir) {
  auto set = std::make_shared<trainctl::schema::SchemaSet>(trainctl::schema::SchemaSet::load_dir(dir));
  return [set](const ResourceType&, json& obj) {
    ValidationResult out;
    auto vr = set->validate(obj, trainctl::schema::Mode::Ignore);
    if (!vr.schema_found) return out;
    out.unknown_fields = vr.unknown_fields;
    for (const auto& c : vr.schema_causes())
      out.causes.push_back({{"reason", c.reason}, {"message", c.message}, {"field", c.field}});
    obj = set->prune(obj);
    return out;
  };
}

std::chrono::milliseconds parse_sim_duration(const std::string& text) {
  size_t pos = 0;
  double v = std::stod(text, &pos);
  std::string unit = text.substr(pos);
  double ms;
  if (unit.empty() || unit == "s") ms = v * 1000;
  else if (unit == "ms") ms = v;
  else if (unit == "m") ms = v * 60'000;
  else if (unit == "h") ms = v * 3'600'000;
  else throw std::invalid_argument("invalid duration \"" + text + "\"");
  return std::chrono::milliseconds(static_cast<int64_t>(ms));
}

void load_startup_objects(Store&, const std::string& seed_file, const std::string& generate) {
  // Seeding (seed.h) is provided by the controllers library once implemented.
  if (!seed_file.empty() || !generate.empty())
    throw std::runtime_error("--seed and --generate are not available in this build yet");
}

}  // namespace kubesim
