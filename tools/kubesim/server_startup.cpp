#include "kubesim/server_startup.h"

#include "kubesim/crd_objects.h"
#include "kubesim/seed.h"
#include "schema/schema.h"

#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>

namespace kubesim {

Validator make_schema_validator(const std::string& dir) {
  // One SchemaSet per schema directory and process (it is thread-safe): a test process starts
  // many servers on the same schemas, and reading them is most of a start (crd_objects.h).
  static std::mutex mu;
  static std::map<std::string, std::shared_ptr<trainctl::schema::SchemaSet>> sets;
  const std::string key = crd_dir_signature(dir + "/crds") + "|" + crd_dir_signature(dir + "/openapi");
  std::shared_ptr<trainctl::schema::SchemaSet> set;
  {
    std::lock_guard lock(mu);
    if (auto it = sets.find(key); it != sets.end()) set = it->second;
  }
  if (!set) {
    set = std::make_shared<trainctl::schema::SchemaSet>(trainctl::schema::SchemaSet::load_dir(dir));
    std::lock_guard lock(mu);
    set = sets.emplace(key, set).first->second;
  }
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

void load_startup_objects(Store& store, const std::string& seed_file, const std::string& generate,
                          PrometheusOptions& prometheus) {
  if (!seed_file.empty()) {
    SeedStats s = load_seed_file(store, seed_file);
    if (s.prometheus) prometheus = *s.prometheus;
    std::cerr << "kubesim: seeded " << s.nodes << " nodes, " << s.namespaces << " namespaces, " << s.pvcs
              << " PVCs, " << s.objects << " objects\n";
  }
  if (!generate.empty()) {
    GenerateStats g = generate_cluster(store, parse_generate_options(generate));
    std::cerr << "kubesim: generated " << g.nodes << " nodes, " << g.jobs << " jobs, " << g.trainjobs << " TrainJobs, "
              << g.pods << " pods\n";
  }
}

}  // namespace kubesim
