// An admin's template directory changes what submit renders (seed 001: MPIJob pods need
// sidecar.istio.io/inject: "false" in Istio namespaces), kind by kind.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "render/templates.h"
#include "submit_testing.h"
#include "support/paths.h"

using namespace trainctl;
using namespace trainctl::testing;
namespace fs = std::filesystem;

TEST_CASE("an overriding mpi/pod.yaml adds the Istio annotation to MPIJob pods only", "[templates]") {
  const std::string dir = make_temp_dir("override");
  render::export_templates(dir, false);
  std::string pod = render::embedded_templates().at("common/pod.yaml");
  const std::string anchor = "  annotations:\n";
  auto at = pod.find(anchor);
  REQUIRE(at != std::string::npos);
  pod.insert(at + anchor.size(), "    sidecar.istio.io/inject: \"false\"\n");
  fs::create_directories(fs::path(dir) / "mpi");
  std::ofstream(fs::path(dir) / "mpi" / "pod.yaml") << pod;
  render::TemplateSet templates(dir);

  auto mpi = render_submit(
      parse_submit("mpi", {"--name=hvd", "--image=horovod/horovod", "-a", "team=ml", "horovodrun"}),
      "default", templates);
  require_valid(mpi);
  for (const char* replica : {"Launcher", "Worker"}) {
    const auto& meta = mpi[0]["spec"]["mpiReplicaSpecs"][replica]["template"]["metadata"];
    CHECK(meta["annotations"]["sidecar.istio.io/inject"] == "false");
    CHECK(meta["annotations"]["team"] == "ml");  // the user's annotations are still there
  }
  auto pytorch = render_submit(
      parse_submit("pytorch", {"--name=pt", "--image=pytorch/pytorch", "python x.py"}), "default", templates);
  CHECK_FALSE(pytorch[0]["spec"]["pytorchReplicaSpecs"]["Master"]["template"]["metadata"]["annotations"].contains(
      "sidecar.istio.io/inject"));
  // Unchanged exported templates render exactly what the built-ins render.
  CHECK(pytorch ==
        render_submit(parse_submit("pytorch", {"--name=pt", "--image=pytorch/pytorch", "python x.py"})));
}

TEST_CASE("a template typo that breaks the YAML is reported with the template's path", "[templates]") {
  const std::string dir = make_temp_dir("typo");
  fs::create_directories(fs::path(dir) / "volcano");
  std::ofstream(fs::path(dir) / "volcano" / "job.yaml") << "apiVersion: [oops\n";
  render::TemplateSet templates(dir);
  CHECK_THROWS_WITH(
      render_submit(parse_submit("volcano", {"--name=v", "--image=x"}), "default", templates),
      Catch::Contains((fs::path(dir) / "volcano" / "job.yaml").string() + " did not render to valid YAML"));
}
