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

namespace {

// Inserts LINE after the first line that ends with ANCHOR.
std::string with_line_after(std::string text, const std::string& anchor, const std::string& line) {
  const auto at = text.find(anchor + "\n");
  REQUIRE(at != std::string::npos);
  text.insert(at + anchor.size() + 1, line + "\n");
  return text;
}

void write_template(const std::string& dir, const std::string& kind, const std::string& text) {
  fs::create_directories(fs::path(dir) / kind);
  std::ofstream(fs::path(dir) / kind / "job.yaml") << text;
}

// The command lines of one kind each, with every replica type.
const std::vector<std::pair<std::string, std::vector<std::string>>>& one_per_kind() {
  static const std::vector<std::pair<std::string, std::vector<std::string>>> lines = {
      {"pytorch", {"--name=pt", kImage, "--workers=3", "--worker-image=pytorch/pytorch:w", "python x.py"}},
      {"mpi", {"--name=hvd", kImage, "--workers=2", "--launcher-cpu=1", "horovodrun"}},
      {"volcano", {"--name=vc", kImage, "--task=ps:1", "--task=trainer:2", "run"}},
      {"pytorch", {"--name=none", kImage, "--workers=2", "--operator=none", "torchrun x.py"}},
  };
  return lines;
}

}  // namespace

TEST_CASE("a job.yaml exported before the pod templates were put in by trainctl still renders the same",
          "[templates]") {
  // Those job.yaml wrote `template: {{..._template_json}}` themselves.
  const auto& builtin = render::embedded_templates();
  const std::string dir = make_temp_dir("legacy");
  std::string pytorch = with_line_after(builtin.at("pytorch/job.yaml"), "      restartPolicy: Never",
                                        "      template: {{master_template_json}}");
  pytorch = with_line_after(pytorch, "      replicas: {{worker_replicas}}\n      restartPolicy: OnFailure",
                            "      template: {{ worker_template_json }}");
  write_template(dir, "pytorch", pytorch);
  std::string mpi = builtin.at("mpi/job.yaml");
  mpi = with_line_after(mpi, "      replicas: 1\n      restartPolicy: OnFailure",
                        "      template: {{launcher_template_json}}");
  mpi = with_line_after(mpi, "      replicas: {{workers}}\n      restartPolicy: OnFailure",
                        "      template: {{{worker_template_json}}}");
  write_template(dir, "mpi", mpi);
  write_template(dir, "volcano",
                 with_line_after(builtin.at("volcano/job.yaml"), "      action: {{action}}\n{{/policies}}",
                                 "    template: {{template_json}}"));
  write_template(dir, "pytorch-none",
                 with_line_after(builtin.at("pytorch-none/job.yaml"),
                                 "  ttlSecondsAfterFinished: {{ttl_seconds_after_finished}}",
                                 "  template: {{pod_template_json}}"));
  const render::TemplateSet legacy(dir);
  for (const auto& [kind, args] : one_per_kind()) {
    CAPTURE(kind, args);
    CHECK(render_submit(parse_submit(kind, args), "default", legacy) ==
          render_submit(parse_submit(kind, args)));
  }
}

TEST_CASE("a job.yaml that writes its own pod template where trainctl puts one is refused", "[templates]") {
  const auto& builtin = render::embedded_templates();
  const std::string dir = make_temp_dir("own-template");
  const std::string own = R"(template: {"spec": {"containers": [{"name": "c", "image": "x"}]}})";
  write_template(
      dir, "pytorch",
      with_line_after(builtin.at("pytorch/job.yaml"), "      restartPolicy: Never", "      " + own));
  write_template(dir, "volcano",
                 with_line_after(builtin.at("volcano/job.yaml"), "      action: {{action}}\n{{/policies}}",
                                 "    " + own));
  write_template(dir, "pytorch-none",
                 with_line_after(builtin.at("pytorch-none/job.yaml"),
                                 "  ttlSecondsAfterFinished: {{ttl_seconds_after_finished}}", "  " + own));
  const render::TemplateSet templates(dir);
  const std::vector<std::pair<size_t, std::string>> refused = {
      {0,
       "/pytorch/job.yaml writes spec.pytorchReplicaSpecs.Master.template itself, where trainctl puts the "
       "rendered pod template: remove that template: line (pods are changed in pod.yaml)"},
      {2, "/volcano/job.yaml writes spec.tasks[0].template itself"},
      {3, "/pytorch-none/job.yaml writes spec.template itself"}};
  for (const auto& [i, message] : refused) {
    const auto& [kind, args] = one_per_kind()[i];
    CAPTURE(kind, args);
    CHECK_THROWS_WITH(render_submit(parse_submit(kind, args), "default", templates),
                      Catch::Contains(message));
  }

  // A job.yaml without the replica the pod template belongs to.
  std::string no_master = builtin.at("pytorch/job.yaml");
  no_master.replace(no_master.find("    Master:"), 11, "    Chief:");
  write_template(dir, "pytorch", no_master);
  CHECK_THROWS_WITH(
      render_submit(parse_submit("pytorch", one_per_kind()[0].second), "default", templates),
      Catch::Contains("/pytorch/job.yaml renders no spec.pytorchReplicaSpecs.Master: trainctl puts "
                      "the pod template at spec.pytorchReplicaSpecs.Master.template"));
}
