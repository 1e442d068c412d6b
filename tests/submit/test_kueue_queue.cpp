// --kueue-queue: the label kueue.x-k8s.io/queue-name on the job object of every kind Kueue
// manages (its jobframework integrations: batch/job, kubeflow pytorchjob and tfjob, mpijob),
// nothing else; the manifests stay valid against the real CRDs.
#include <catch2/catch.hpp>

#include "core/errors.h"
#include "submit/plan.h"
#include "submit_testing.h"

using namespace trainctl;
using namespace trainctl::testing;
using nlohmann::json;

namespace {

constexpr const char* kLabel = "kueue.x-k8s.io/queue-name";

// Every label of every pod template in obj (any depth), so none may carry the queue name.
void collect_template_labels(const json& obj, std::vector<json>& out) {
  if (obj.is_object()) {
    if (obj.contains("template") && obj["template"].is_object() && obj["template"].contains("metadata"))
      out.push_back(obj["template"]["metadata"].value("labels", json::object()));
    for (const auto& [k, v] : obj.items()) collect_template_labels(v, out);
  } else if (obj.is_array()) {
    for (const auto& v : obj) collect_template_labels(v, out);
  }
}

}  // namespace

TEST_CASE("golden: pytorch in a Kueue LocalQueue", "[golden][kueue]") {
  check_golden("pytorch_kueue", submit_objects("pytorch", {"--name=mnist", "--image=pytorch/pytorch:2.3",
                                                           "--workers=2", "--gpus=2", "--kueue-queue=team-a",
                                                           "python train.py"}));
}

TEST_CASE("golden: operator-free pytorch (batch Job) in a Kueue LocalQueue", "[golden][kueue]") {
  check_golden("pytorch_operator_none_kueue",
               submit_objects("pytorch", {"--name=mnist", "--image=pytorch/pytorch:2.3", "--workers=2",
                                          "--operator=none", "--kueue-queue=team-a", "python train.py"}));
}

TEST_CASE("--kueue-queue labels the job object of tf and mpi, not their pods", "[kueue]") {
  struct Case {
    std::string kind, job_kind;
  };
  for (const auto& c : {Case{"tf", "TFJob"}, Case{"mpi", "MPIJob"}, Case{"pytorch", "PyTorchJob"}}) {
    INFO(c.kind);
    auto objects =
        submit_objects(c.kind, {"--name=q", "--image=img", "--workers=2", "--kueue-queue=team-a", "python x.py"});
    const json& job = object_of_kind(objects, c.job_kind);
    CHECK(job["metadata"]["labels"][kLabel] == "team-a");
    // No suspend of trainctl's own: Kueue's webhook sets it (runPolicy.suspend / spec.suspend).
    CHECK_FALSE(job["spec"].value("runPolicy", json::object()).contains("suspend"));
    std::vector<json> templates;
    collect_template_labels(job["spec"], templates);
    CHECK_FALSE(templates.empty());
    for (const auto& l : templates) CHECK_FALSE(l.contains(kLabel));
  }
}

TEST_CASE("without --kueue-queue no job carries the Kueue label", "[kueue]") {
  auto objects = submit_objects("pytorch", {"--name=q", "--image=img", "python x.py"});
  CHECK_FALSE(object_of_kind(objects, "PyTorchJob")["metadata"]["labels"].contains(kLabel));
}

TEST_CASE("--kueue-queue is refused for Volcano and for names that are not LocalQueue names", "[kueue]") {
  auto refused = [](const std::string& kind, const std::vector<std::string>& args) {
    try {
      submit::make_plan(parse_submit(kind, args), "default", {});
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK_THAT(refused("volcano", {"--name=v", "--image=i", "--kueue-queue=team-a", "sleep 1"}),
             Catch::Contains("Kueue does not manage Volcano jobs"));
  CHECK_THAT(refused("pytorch", {"--name=p", "--image=i", "--kueue-queue=Team_A", "sleep 1"}),
             Catch::Contains("invalid --kueue-queue \"Team_A\""));
  CHECK_THAT(refused("pytorch", {"--name=p", "--image=i", "--kueue-queue=" + std::string(64, 'a'), "sleep 1"}),
             Catch::Contains("invalid --kueue-queue"));
}
