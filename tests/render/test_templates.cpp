// Where templates come from: the built-in set, overridden file by file from a directory; the
// export command's writer; every built-in template is valid mustache and YAML.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "core/errors.h"
#include "render/render.h"
#include "render/templates.h"
#include "schema/schema.h"
#include "support/paths.h"

using namespace trainctl;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {
void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}
std::string read(const fs::path& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), {}};
}
}  // namespace

TEST_CASE("the built-in set has one job template per kind and shared pod/TensorBoard templates",
          "[templates]") {
  const auto& t = render::embedded_templates();
  for (const char* name : {"pytorch/job.yaml", "pytorch-none/job.yaml", "pytorch-none/service.yaml",
                           "mpi/job.yaml", "volcano/job.yaml", "common/pod.yaml",
                           "common/tensorboard-deployment.yaml", "common/tensorboard-service.yaml"}) {
    INFO(name);
    CHECK(t.count(name) == 1);
  }
}

TEST_CASE("every built-in template renders to YAML with no values at all", "[templates]") {
  for (const auto& [name, text] : render::embedded_templates()) {
    INFO(name);
    CHECK_NOTHROW(render::render_objects(name, text, json::object()));
  }
}

TEST_CASE("lookup order: override KIND/NAME, override common/NAME, built-in KIND/NAME, built-in common/NAME",
          "[templates]") {
  const std::string dir = testing::make_temp_dir("templates");
  render::TemplateSet builtin;
  render::TemplateSet over(dir);
  std::string source;
  CHECK(over.get("mpi", "pod.yaml", &source) == render::embedded_templates().at("common/pod.yaml"));
  CHECK(source == "built-in common/pod.yaml");
  write(fs::path(dir) / "common/pod.yaml", "common: 1\n");
  CHECK(over.get("mpi", "pod.yaml", &source) == "common: 1\n");
  CHECK(source == (fs::path(dir) / "common/pod.yaml").string());
  write(fs::path(dir) / "mpi/pod.yaml", "mpi: 1\n");
  CHECK(over.get("mpi", "pod.yaml") == "mpi: 1\n");
  CHECK(over.get("pytorch", "pod.yaml") == "common: 1\n");
  CHECK(over.get("pytorch", "job.yaml") == render::embedded_templates().at("pytorch/job.yaml"));
  CHECK(builtin.get("mpi", "pod.yaml") == render::embedded_templates().at("common/pod.yaml"));
  CHECK_THROWS_WITH(builtin.get("mpi", "nothing.yaml"),
                    "no template mpi/nothing.yaml (nor common/nothing.yaml)");
}

TEST_CASE("the template directory comes from the flag, else TRAINCTL_TEMPLATE_DIR", "[templates]") {
  const std::string dir = testing::make_temp_dir("tdir");
  ::unsetenv("TRAINCTL_TEMPLATE_DIR");
  CHECK(render::resolve_template_dir("") == "");
  CHECK(render::resolve_template_dir(dir) == dir);
  ::setenv("TRAINCTL_TEMPLATE_DIR", dir.c_str(), 1);
  CHECK(render::resolve_template_dir("") == dir);
  ::setenv("TRAINCTL_TEMPLATE_DIR", "/nonexistent/templates", 1);
  CHECK_THROWS_AS(render::resolve_template_dir(""), UsageError);
  CHECK_THROWS_WITH(render::resolve_template_dir(""),
                    "TRAINCTL_TEMPLATE_DIR \"/nonexistent/templates\" is not a directory");
  CHECK_THROWS_WITH(render::resolve_template_dir("/nonexistent/x"),
                    "--template-dir \"/nonexistent/x\" is not a directory");
  ::unsetenv("TRAINCTL_TEMPLATE_DIR");
}

TEST_CASE("export writes every built-in template and refuses to overwrite without force", "[templates]") {
  const std::string dir = testing::make_temp_dir("export");
  auto written = render::export_templates(dir, false);
  CHECK(written.size() == render::embedded_templates().size());
  for (const auto& [name, text] : render::embedded_templates()) CHECK(read(fs::path(dir) / name) == text);
  CHECK_THROWS_WITH(render::export_templates(dir, false),
                    Catch::Contains("already exists (use --force to overwrite)"));
  CHECK_NOTHROW(render::export_templates(dir, true));
  // An exported set used as an override directory renders exactly as the built-ins.
  render::TemplateSet over(dir);
  CHECK(over.get("volcano", "job.yaml") == render::embedded_templates().at("volcano/job.yaml"));
}

TEST_CASE("export --force replaces a symbolic link, never writing through it", "[templates]") {
  const std::string dir = testing::make_temp_dir("export-links");
  const fs::path outside = fs::path(testing::make_temp_dir("export-target")) / "precious.txt";
  std::ofstream(outside) << "keep me";
  const std::string name = render::embedded_templates().begin()->first;
  fs::create_directories((fs::path(dir) / name).parent_path());
  fs::create_symlink(outside, fs::path(dir) / name);
  // Without --force a link is an existing file, even a dangling one.
  CHECK_THROWS_WITH(render::export_templates(dir, false), Catch::Contains("already exists"));
  render::export_templates(dir, true);
  CHECK(read(outside) == "keep me");
  CHECK_FALSE(fs::is_symlink(fs::symlink_status(fs::path(dir) / name)));
  CHECK(read(fs::path(dir) / name) == render::embedded_templates().begin()->second);

  // A sub-directory that is a link is not written through.
  const std::string dir2 = testing::make_temp_dir("export-dirlink");
  const fs::path elsewhere = testing::make_temp_dir("export-elsewhere");
  fs::create_directory_symlink(elsewhere, fs::path(dir2) / fs::path(name).parent_path());
  CHECK_THROWS_WITH(render::export_templates(dir2, true), Catch::Contains("is a symbolic link"));
  CHECK(fs::is_empty(elsewhere));
}

TEST_CASE("the TensorBoard Service template renders a valid core/v1 Service", "[templates]") {
  auto set = schema::SchemaSet::load_dir(testing::require_schema_dir());
  json v = {
      {"name", "demo-tensorboard"},
      {"namespace", "ns1"},
      {"labels", {{{"key", "role"}, {"value", "tensorboard"}}, {{"key", "release"}, {"value", "demo"}}}},
      {"selector", {{{"key", "role"}, {"value", "tensorboard"}}}}};
  auto objs =
      render::render_objects("svc", render::embedded_templates().at("common/tensorboard-service.yaml"), v);
  REQUIRE(objs.size() == 1);
  auto result = set.validate(objs[0]);
  INFO(result.to_string());
  CHECK(result.ok());
  CHECK(objs[0]["spec"]["type"] == "NodePort");
  CHECK(objs[0]["spec"]["ports"][0]["port"] == 6006);
}
