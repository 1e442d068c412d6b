// The GPUs a TrainJob asks for through its runtime (trainjob_runtime_gpus.h): which runtime a
// job takes them from, and Trainer v2.3.0's pod counts (torch: trainer.numNodes on the
// trainer-ancestor job; MPI runLauncherAsNode: one node fewer on the job named node).
#include <catch2/catch.hpp>

#include "jobs/trainjob_runtime_gpus.h"

using namespace trainctl::jobs;
using nlohmann::json;

namespace {

json rjob(const std::string& name, const std::string& ancestor, const json& limits) {
  json container = {{"name", "node"}, {"image", "img"}};
  if (!limits.is_null()) container["resources"] = {{"limits", limits}};
  json tmpl = {{"spec", {{"template", {{"spec", {{"containers", json::array({container})}}}}}}}};
  if (!ancestor.empty()) tmpl["metadata"] = {{"labels", {{"trainer.kubeflow.org/trainjob-ancestor-step", ancestor}}}};
  return {{"name", name}, {"template", tmpl}};
}

json runtime(const json& ml_policy, const json& rjobs) {
  return {{"kind", "ClusterTrainingRuntime"},
          {"spec", {{"mlPolicy", ml_policy}, {"template", {{"spec", {{"replicatedJobs", rjobs}}}}}}}};
}

json trainjob(const json& spec) {
  return {{"metadata", {{"name", "tune"}, {"namespace", "team-a"}}}, {"spec", spec}};
}

}  // namespace

TEST_CASE("TrainJob runtime GPUs: the runtime a job takes its GPUs from") {
  // No resourcesPerNode: the ClusterTrainingRuntime it names (the CRD's default kind).
  auto r = gpu_runtime_of(trainjob({{"runtimeRef", {{"name", "torchtune-llama3.2-1b"}}}}));
  REQUIRE(r);
  CHECK(r->kind == "ClusterTrainingRuntime");
  CHECK(r->namespace_.empty());
  CHECK(r->name == "torchtune-llama3.2-1b");
  // A TrainingRuntime is the job's namespace's.
  r = gpu_runtime_of(trainjob({{"runtimeRef", {{"name", "mine"}, {"kind", "TrainingRuntime"}}}}));
  REQUIRE(r);
  CHECK(r->namespace_ == "team-a");
  // resourcesPerNode without a GPU leaves the runtime's GPUs (merged key by key).
  CHECK(gpu_runtime_of(trainjob({{"runtimeRef", {{"name", "x"}}},
                                 {"trainer", {{"resourcesPerNode", {{"limits", {{"cpu", "4"}}}}}}}})));
  // One that names a GPU, even 0, replaces them: the job's own spec decides.
  CHECK_FALSE(gpu_runtime_of(trainjob({{"runtimeRef", {{"name", "x"}}},
                                       {"trainer", {{"resourcesPerNode", {{"limits", {{"nvidia.com/gpu", 0}}}}}}}})));
  CHECK_FALSE(gpu_runtime_of(trainjob({{"runtimeRef", {{"name", "x"}}},
                                       {"trainer", {{"resourcesPerNode", {{"requests", {{"nvidia.com/gpu", "1"}}}}}}}})));
  // Another group's runtime is none of Trainer's.
  CHECK_FALSE(gpu_runtime_of(trainjob({{"runtimeRef", {{"name", "x"}, {"apiGroup", "example.com"}}}})));
}

TEST_CASE("TrainJob runtime GPUs: torch counts trainer.numNodes, else the runtime's numNodes") {
  // torchtune's shape: initializers without GPUs, the trainer node with 2.
  const json rt = runtime({{"numNodes", 1}, {"torch", json::object()}},
                          json::array({rjob("dataset-initializer", "dataset-initializer", nullptr),
                                       rjob("model-initializer", "model-initializer", nullptr),
                                       rjob("node", "trainer", {{"nvidia.com/gpu", 2}})}));
  CHECK(runtime_requested_gpus(json::object(), rt) == 2);
  CHECK(runtime_requested_gpus({{"trainer", {{"numNodes", 3}}}}, rt) == 6);
  json two = rt;
  two["spec"]["mlPolicy"]["numNodes"] = 2;
  CHECK(runtime_requested_gpus(json::object(), two) == 4);
}

TEST_CASE("TrainJob runtime GPUs: MPI with runLauncherAsNode runs one node fewer beside the launcher") {
  const json rt = runtime({{"numNodes", 1}, {"mpi", {{"runLauncherAsNode", true}}}},
                          json::array({rjob("launcher", "trainer", {{"nvidia.com/gpu", 1}}),
                                       rjob("node", "", {{"nvidia.com/gpu", 1}})}));
  // 4 nodes: the launcher (mlPolicy.numNodes 1) and 3 on the node job.
  CHECK(runtime_requested_gpus({{"trainer", {{"numNodes", 4}}}}, rt) == 4);
  CHECK(runtime_requested_gpus(json::object(), rt) == 2);
}
