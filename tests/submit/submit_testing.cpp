#include "submit_testing.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>

#include "cmd/submit.h"
#include "render/render.h"
#include "schema/schema.h"
#include "submit/submit_kind.h"
#include "submit/manifests.h"
#include "submit/plan.h"
#include "support/paths.h"
#include "yaml/write.h"

namespace trainctl::testing {

using nlohmann::json;

submit::SubmitOptions parse_submit(const std::string& kind, const std::vector<std::string>& args) {
  CLI::App app{"test"};
  submit::SubmitOptions o;
  add_submit_flags(app, submit::submit_kind_of_command(kind).flags(o));
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them last first
  app.parse(reversed);
  return o;
}

std::vector<json> render_submit(const submit::SubmitOptions& o, const std::string& ns,
                                const render::TemplateSet& templates) {
  return submit::build_manifests(submit::make_plan(o, ns, submit::read_config_files(o.config_files, o.name)), templates);
}

std::vector<json> render_submit_plan(const submit::Plan& plan) {
  return submit::build_manifests(plan, render::TemplateSet());
}

std::vector<json> submit_objects(const std::string& kind, const std::vector<std::string>& args) {
  auto objects = render_submit(parse_submit(kind, args));
  require_valid(objects);
  return objects;
}

namespace {
const schema::SchemaSet& schemas() {
  static const schema::SchemaSet set = schema::SchemaSet::load_dir(require_schema_dir());
  return set;
}
}  // namespace

void require_valid(const std::vector<json>& objects) {
  for (const auto& o : objects) {
    auto result = schemas().validate(o, schema::Mode::Strict);
    INFO(o.value("kind", "?") << " " << o["metadata"].value("name", "") << ":\n" << result.to_string());
    REQUIRE(result.schema_found);
    REQUIRE(result.ok());
  }
}

void check_golden(const std::string& name, const std::vector<json>& objects) {
  const std::string path = std::string(TRAINCTL_SOURCE_DIR) + "/tests/golden/submit/" + name + ".yaml";
  const char* update = std::getenv("UPDATE_GOLDEN");
  if (update && std::string(update) == "1") {
    std::ofstream out(path, std::ios::trunc);
    out << yaml::to_yaml_stream(objects);
    REQUIRE(out.good());
    WARN("rewrote " << path);
    return;
  }
  std::ifstream in(path);
  INFO("golden file " << path << " (UPDATE_GOLDEN=1 writes it)");
  REQUIRE(in.good());
  std::stringstream ss;
  ss << in.rdbuf();
  auto expected = render::parse_yaml_stream(path, ss.str());
  REQUIRE(expected.size() == objects.size());
  for (size_t i = 0; i < objects.size(); ++i) {
    INFO("object " << i << "\nexpected:\n" << expected[i].dump(2) << "\nactual:\n" << objects[i].dump(2));
    CHECK(expected[i] == objects[i]);
  }
}

const json& object_of_kind(const std::vector<json>& objects, const std::string& kind) {
  auto it = std::find_if(objects.begin(), objects.end(),
                         [&](const json& o) { return o.value("kind", "") == kind; });
  INFO("looking for a " << kind);
  REQUIRE(it != objects.end());
  return *it;
}

const json& pod_spec(const json& job, const std::string& replica) {
  const json& spec = job.at("spec");
  if (spec.contains("pytorchReplicaSpecs"))
    return spec["pytorchReplicaSpecs"].at(replica).at("template").at("spec");
  if (spec.contains("tfReplicaSpecs")) return spec["tfReplicaSpecs"].at(replica).at("template").at("spec");
  if (spec.contains("mpiReplicaSpecs")) return spec["mpiReplicaSpecs"].at(replica).at("template").at("spec");
  if (spec.contains("tasks")) {
    for (const auto& t : spec["tasks"])
      if (t.at("name") == replica) return t.at("template").at("spec");
    FAIL("no task " << replica);
  }
  return spec.at("template").at("spec");
}

const json& main_container(const json& job, const std::string& replica) {
  return pod_spec(job, replica).at("containers").at(0);
}

json env_value(const json& container, const std::string& name) {
  if (!container.contains("env")) return nullptr;
  for (const auto& e : container["env"])
    if (e.at("name") == name) return e.contains("value") ? e["value"] : e.at("valueFrom");
  return nullptr;
}

}  // namespace trainctl::testing
