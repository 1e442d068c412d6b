// --service-account NAME: spec.serviceAccountName on every pod template of every kind (the
// pods of seed 003's Paddle launcher list pods and endpoints from inside, which a namespace's
// default ServiceAccount usually may not). Every object is validated against the real CRDs
// and core schemas (submit_objects).
#include <catch2/catch.hpp>

#include "core/errors.h"
#include "submit/plan.h"
#include "submit_testing.h"

using namespace trainctl::testing;
using nlohmann::json;

namespace {

// Every PodSpec in `node` (an object with containers), wherever the kind puts its templates.
void pod_specs(const json& node, std::vector<const json*>& out) {
  if (node.is_object()) {
    if (node.contains("containers") && node["containers"].is_array()) out.push_back(&node);
    for (auto it = node.begin(); it != node.end(); ++it) pod_specs(*it, out);
  } else if (node.is_array()) {
    for (const auto& value : node) pod_specs(value, out);
  }
}

std::vector<const json*> job_pod_specs(const std::vector<json>& objects) {
  std::vector<const json*> out;
  for (const auto& o : objects)
    if (o.value("kind", "") != "Deployment") pod_specs(o, out);  // TensorBoard: its own rule
  return out;
}

}  // namespace

TEST_CASE("--service-account reaches every pod template of every kind", "[flags][service-account]") {
  const std::string sa = "--service-account=paddle-launcher";
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"pytorch", {"--name=sa", "--workers=3", kImage, sa, "python train.py"}},
      {"pytorch", {"--name=sa", "--workers=2", "--operator=none", kImage, sa, "python train.py"}},
      {"pytorch", {"--name=sa", "--min-workers=1", "--max-workers=3", kImage, sa, "torchrun train.py"}},
      {"tf", {"--name=sa", "--workers=2", "--ps=1", "--chief", "--evaluator", kImage, sa, "python train.py"}},
      {"mpi", {"--name=sa", "--workers=2", kImage, sa, "mpirun python train.py"}},
      {"volcano",
       {"--name=sa", kImage, "--task=pserver:2", "--task=trainer:2", sa, "--task-port=30236",
        "paddle_k8s start_fluid"}},
  };
  for (const auto& [kind, args] : cases) {
    INFO(kind << " " << args[1] << " " << args[2]);
    const auto objs = submit_objects(kind, args);
    const auto specs = job_pod_specs(objs);
    // Every replica type / task has its template: 2 (pytorch), 1 (Job), 1 (elastic: Worker
    // only), 4 (tf), 2 (mpi), 2 (volcano).
    CHECK(specs.size() >= 1);
    for (const json* spec : specs) CHECK((*spec)["serviceAccountName"] == "paddle-launcher");
    // Without the flag: the namespace's default, nothing rendered.
    std::vector<std::string> plain;
    for (const auto& a : args)
      if (a != sa) plain.push_back(a);
    const auto plain_objs = submit_objects(kind, plain);  // held: the specs point into it
    for (const json* spec : job_pod_specs(plain_objs)) CHECK_FALSE(spec->contains("serviceAccountName"));
  }
}

TEST_CASE("--service-account: each replica type counted", "[flags][service-account]") {
  auto tf = submit_objects("tf", {"--name=sa", "--ps=1", "--chief", "--evaluator", kImage,
                                  "--service-account=tf-runner", "python train.py"});
  for (const char* replica : {"PS", "Worker", "Chief", "Evaluator"}) {
    INFO(replica);
    CHECK(pod_spec(tf[0], replica)["serviceAccountName"] == "tf-runner");
  }
  auto mpi = submit_objects("mpi", {"--name=sa", kImage, "--service-account=mpi.runner", "mpirun x"});
  for (const char* replica : {"Launcher", "Worker"}) CHECK(pod_spec(mpi[0], replica)["serviceAccountName"] == "mpi.runner");
  auto vc = submit_objects("volcano", {"--name=sa", kImage, "--task=pserver:1", "--task=trainer:2",
                                       "--service-account=paddle", "paddle_k8s start_fluid"});
  for (const char* task : {"pserver", "trainer"}) CHECK(pod_spec(vc[0], task)["serviceAccountName"] == "paddle");
}

// TensorBoard reads a remote logdir with the job's identity (workload identity binds storage
// credentials to the ServiceAccount); with a mounted logdir it keeps the namespace's default.
TEST_CASE("--service-account on TensorBoard: only for a remote logdir", "[flags][service-account]") {
  auto remote = submit_objects("pytorch", {"--name=sa", kImage, "--tensorboard", "--logdir=s3://bucket/logs",
                                           "--service-account=trainer", "python train.py"});
  CHECK(object_of_kind(remote, "Deployment")["spec"]["template"]["spec"]["serviceAccountName"] == "trainer");
  auto local = submit_objects("pytorch", {"--name=sa", kImage, "--tensorboard", "--logdir=/logs",
                                          "--service-account=trainer", "python train.py"});
  CHECK_FALSE(object_of_kind(local, "Deployment")["spec"]["template"]["spec"].contains("serviceAccountName"));
  CHECK(pod_spec(local[0], "Master")["serviceAccountName"] == "trainer");
}

TEST_CASE("--service-account must be a ServiceAccount name", "[flags][service-account]") {
  for (const std::string& bad :
       std::vector<std::string>{"Paddle", "paddle_launcher", "-paddle", "paddle.", std::string(254, 'a')}) {
    INFO(bad);
    auto o = parse_submit("mpi", {"--name=sa", kImage, "--service-account=" + bad, "mpirun x"});
    CHECK_THROWS_WITH(trainctl::submit::make_plan(o, "default", {}),
                      Catch::StartsWith("invalid --service-account") && Catch::Contains("ServiceAccount name"));
    CHECK_THROWS_AS(trainctl::submit::make_plan(o, "default", {}), trainctl::UsageError);
  }
}
