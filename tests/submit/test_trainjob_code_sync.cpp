// submit trainjob --sync-mode: the TrainJob runs on a TrainingRuntime of its own, the chosen
// runtime with the code-sync init container added (trainjob_code_sync.cpp), judged by the real
// TrainJob and TrainingRuntime CRDs in Strict mode; create.h makes it before the TrainJob, then
// the TrainJob its owner, and deletes it when the TrainJob cannot be created.
#include <catch2/catch.hpp>

#include "core/errors.h"
#include "core/file.h"
#include "scripted_client.h"
#include "submit/create.h"
#include "submit/kind_part.h"
#include "submit/kinds/kinds.h"
#include "submit/kinds/trainjob.h"
#include "submit/plan.h"
#include "submit/submit_kind.h"
#include "submit/trainer_runtimes.h"
#include "submit_testing.h"
#include "support/paths.h"
#include "yaml/read.h"

using namespace trainctl;
using namespace trainctl::testing;
using nlohmann::json;

namespace {

json shipped_runtime(const std::string& file) {
  const auto dir = find_trainer_runtimes_dir();
  if (!dir) FAIL("no Kubeflow Trainer runtimes (../shared/trainer-runtimes)");
  return yaml::parse(read_file(*dir + "/" + file), file);
}

// The seed-000 flags on `shipped_runtime`, as check_cluster leaves the plan.
std::vector<json> code_sync_objects(const std::string& file) {
  const auto o = parse_submit("pytorch", {"--api=trainer", "--name=pytorch-dist", "--gpus=1", "--workers=3",
                                          "--working-dir=/root", kImage, "--sync-mode=git",
                                          "--sync-source=https://code.aliyun.com/370272561/mnist-pytorch.git",
                                          "-e", "GIT_SYNC_USERNAME=me", "--data=training-data:/mnist_data",
                                          "python /root/code/mnist-pytorch/mnist.py"});
  submit::Plan p = submit::make_plan(o, "default", {});
  const auto runtime = submit::runtime_of(shipped_runtime(file));
  submit::set_kind_part<submit::TrainJobPlan>(p).runtime_node_jobs = runtime.node_jobs;
  submit::set_kind_part<submit::TrainJobPlan>(p).sync_runtime_source = runtime.object;
  return render_submit_plan(p);
}

const json& runtime_pod(const json& rjob) { return rjob["template"]["spec"]["template"]["spec"]; }

}  // namespace

TEST_CASE("--sync-mode: the TrainJob names its own TrainingRuntime, the runtime with the git-sync init container") {
  const auto objects = code_sync_objects("torch_distributed.yaml");
  REQUIRE(objects.size() == 2);
  require_valid(objects);
  const json& tj = objects[0];
  const json& rt = objects[1];
  CHECK(tj["spec"]["runtimeRef"] == json{{"name", "pytorch-dist-code-sync"}, {"kind", "TrainingRuntime"}});
  CHECK(rt["kind"] == "TrainingRuntime");
  CHECK(rt["metadata"]["name"] == "pytorch-dist-code-sync");
  CHECK(rt["metadata"]["namespace"] == "default");
  CHECK(rt["metadata"]["labels"]["trainer.kubeflow.org/framework"] == "torch");
  CHECK(rt["metadata"]["annotations"]["trainctl.io/copy-of"] == "ClusterTrainingRuntime/torch-distributed");
  CHECK(rt["spec"]["mlPolicy"] == json::parse(R"({"numNodes": 1, "torch": {}})"));
  const json& pod = runtime_pod(rt["spec"]["template"]["spec"]["replicatedJobs"][0]);
  REQUIRE(pod["initContainers"].size() == 1);
  const json& init = pod["initContainers"][0];
  json env = json::object();
  for (const auto& e : init["env"]) env[e["name"].get<std::string>()] = e["value"];
  CHECK(env["GIT_SYNC_REPO"] == "https://code.aliyun.com/370272561/mnist-pytorch.git");
  CHECK(env["GIT_SYNC_DEST"] == "mnist-pytorch");
  CHECK(env["GIT_SYNC_ROOT"] == "/code");
  CHECK(env["GIT_SYNC_USERNAME"] == "me");  // the git-sync variables of seed 000, as Arena passes them
  CHECK(init["volumeMounts"] == json::parse(R"([{"name": "code-sync", "mountPath": "/code"}])"));
  CHECK(pod["volumes"] == json::parse(R"([{"name": "code-sync", "emptyDir": {}}])"));
  CHECK(pod["containers"][0]["volumeMounts"] == json::parse(R"([{"name": "code-sync", "mountPath": "/root/code"}])"));
  // The TrainJob's own patch mounts the --data volume only: the code volume is the runtime's.
  const json& patched = tj["spec"]["runtimePatches"][0]["trainingRuntimeSpec"]["template"]["spec"]["replicatedJobs"][0]
                          ["template"]["spec"]["template"]["spec"];
  CHECK(patched["containers"][0]["volumeMounts"] ==
        json::parse(R"([{"name": "training-data", "mountPath": "/mnist_data"}])"));
}

TEST_CASE("--sync-mode: every replicated job that runs container node gets the code (DeepSpeed: launcher and node)") {
  const auto objects = code_sync_objects("deepspeed_distributed.yaml");
  REQUIRE(objects.size() == 2);
  require_valid(objects);
  int with_code = 0;
  for (const auto& rj : objects[1]["spec"]["template"]["spec"]["replicatedJobs"]) {
    const json& pod = runtime_pod(rj);
    CHECK(pod["initContainers"].back()["name"] == "init-code");
    CHECK(pod["volumes"].back() == json::parse(R"({"name": "code-sync", "emptyDir": {}})"));
    ++with_code;
  }
  CHECK(with_code == 2);
}

TEST_CASE("submit trainjob takes the code-sync flags: its job runs on a copy of the runtime it names") {
  // Arena's camelCase spellings too, as submit pytorch takes them.
  const auto o = parse_submit("trainjob", {"--name=tune", "--runtime=deepspeed-distributed", "--workers=2",
                                           "--working-dir=/root", "--syncMode=git",
                                           "--syncSource=https://github.com/example/tune.git",
                                           "--sync-image=my.registry/acs/git-sync:v3.3.5",
                                           "python /root/code/tune/train.py"});
  submit::Plan p = submit::make_plan(o, "team-a", {});
  const auto runtime = submit::runtime_of(shipped_runtime("deepspeed_distributed.yaml"));
  submit::set_kind_part<submit::TrainJobPlan>(p).runtime_node_jobs = runtime.node_jobs;
  submit::set_kind_part<submit::TrainJobPlan>(p).sync_runtime_source = runtime.object;
  const auto objects = render_submit_plan(p);
  REQUIRE(objects.size() == 2);
  require_valid(objects);
  CHECK(objects[0]["spec"]["runtimeRef"] == json{{"name", "tune-code-sync"}, {"kind", "TrainingRuntime"}});
  const json& rt = objects[1];
  CHECK(rt["metadata"]["namespace"] == "team-a");
  CHECK(rt["metadata"]["annotations"]["trainctl.io/copy-of"] == "ClusterTrainingRuntime/deepspeed-distributed");
  CHECK(rt["metadata"]["labels"]["trainer.kubeflow.org/framework"] == "deepspeed");
  for (const auto& rj : rt["spec"]["template"]["spec"]["replicatedJobs"]) {
    const json& init = runtime_pod(rj)["initContainers"].back();
    CHECK(init["image"] == "my.registry/acs/git-sync:v3.3.5");
    json env = json::object();
    for (const auto& e : init["env"]) env[e["name"].get<std::string>()] = e["value"];
    CHECK(env["GIT_SYNC_REPO"] == "https://github.com/example/tune.git");
  }
}

TEST_CASE("submit trainjob --sync-source without --sync-mode is refused as for submit pytorch") {
  try {
    render_submit(parse_submit("trainjob", {"--name=x", "--runtime=torch-distributed",
                                            "--sync-source=https://x/y.git", "python a.py"}));
    FAIL("not refused");
  } catch (const UsageError& e) {
    CHECK_THAT(std::string(e.what()), Catch::Contains("--sync-mode"));
  }
}

TEST_CASE("--sync-mode with --dry-run is refused for a TrainJob: the copy needs the cluster's runtime") {
  try {
    render_submit(parse_submit("pytorch", {"--api=trainer", "--name=x", kImage, "--sync-mode=git",
                                           "--sync-source=https://x/y.git", "--dry-run", "python a.py"}));
    FAIL("not refused");
  } catch (const UsageError& e) {
    CHECK_THAT(std::string(e.what()), Catch::StartsWith("--dry-run with --sync-mode:"));
  }
}

namespace {

// The API server's answers: a POST's object with a uid; a PATCH's the whole object patched.
kube::Response echo_uid(const kube::Request& r) {
  json o = r.body.empty() ? json::object() : json::parse(r.body);
  if (r.method == "POST") o["metadata"]["uid"] = "uid-" + o["metadata"]["name"].get<std::string>();
  if (r.method == "PATCH") {
    o["apiVersion"] = "trainer.kubeflow.org/v1alpha1";
    o["kind"] = "TrainingRuntime";
    o["metadata"]["name"] = "pytorch-dist-code-sync";
  }
  return ScriptedClient::ok(o);
}

std::vector<std::string> sent_requests(const ScriptedClient& c) {
  std::vector<std::string> out;
  for (const auto& r : c.requests()) out.push_back(r.method + " " + r.path);
  return out;
}

const submit::SubmitKind& trainjob_kind() { return submit::kinds::trainjob(); }

}  // namespace

TEST_CASE("create: the TrainJob's own runtime first, then the TrainJob, then the runtime owned by it", "[create]") {
  ScriptedClient client([](const kube::Request& r, int) { return echo_uid(r); });
  const auto created = submit::create_all(client, trainjob_kind(), "default", code_sync_objects("torch_distributed.yaml"));
  const std::string rt = "/apis/trainer.kubeflow.org/v1alpha1/namespaces/default/trainingruntimes";
  CHECK(sent_requests(client) ==
        std::vector<std::string>{"POST " + rt + "?fieldValidation=Strict",
                                 "POST /apis/trainer.kubeflow.org/v1alpha1/namespaces/default/trainjobs?fieldValidation=Strict",
                                 "PATCH " + rt + "/pytorch-dist-code-sync?fieldValidation=Strict"});
  CHECK_FALSE(json::parse(client.requests()[0].body)["metadata"].contains("ownerReferences"));
  CHECK(json::parse(client.requests()[2].body) == json::parse(R"({"metadata": {"ownerReferences": [{
      "apiVersion": "trainer.kubeflow.org/v1alpha1", "kind": "TrainJob", "name": "pytorch-dist",
      "uid": "uid-pytorch-dist", "controller": false, "blockOwnerDeletion": true}]}})"));
  CHECK(created.size() == 2);
}

TEST_CASE("create: a TrainJob that cannot be created takes its own runtime with it", "[create]") {
  ScriptedClient client([](const kube::Request& r, int) -> kube::Response {
    if (r.method == "POST" && r.path.find("/trainjobs") != std::string::npos)
      ScriptedClient::fail(422, "Invalid", "TrainJob.trainer.kubeflow.org \"pytorch-dist\" is invalid");
    return echo_uid(r);
  });
  try {
    submit::create_all(client, trainjob_kind(), "default", code_sync_objects("torch_distributed.yaml"));
    FAIL("no error");
  } catch (const Error& e) {
    CHECK_THAT(std::string(e.what()), Catch::Contains("is invalid") && Catch::Contains("deleted the 1 object(s)"));
  }
  const auto calls = sent_requests(client);
  REQUIRE(calls.size() == 3);
  CHECK(calls[2] == "DELETE /apis/trainer.kubeflow.org/v1alpha1/namespaces/default/trainingruntimes/pytorch-dist-code-sync");
}
