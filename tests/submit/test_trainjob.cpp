// submit trainjob and submit pytorch --api trainer: the TrainJob, judged by the real
// trainer.kubeflow.org CRD (v2.3.0) in Strict mode; the refusals of what a TrainJob cannot carry;
// the runtime lookup and the API choice against scripted answers.
#include <catch2/catch.hpp>

#include "core/errors.h"
#include "core/file.h"
#include "scripted_client.h"
#include "submit/api_choice.h"
#include "submit/kind_part.h"
#include "submit/kinds/kinds.h"
#include "submit/kinds/trainjob.h"
#include "submit/plan.h"
#include "submit/server_facts.h"
#include "submit/submit_kind.h"
#include "submit/trainer_runtimes.h"
#include "submit_testing.h"
#include "support/paths.h"
#include "yaml/read.h"

using namespace trainctl;
using namespace trainctl::testing;
using nlohmann::json;

namespace {

const json& patch_pod(const json& tj) {
  return tj["spec"]["runtimePatches"][0]["trainingRuntimeSpec"]["template"]["spec"]["replicatedJobs"][0]["template"]
           ["spec"]["template"];
}

json trainjob_crd() {
  return yaml::parse(read_file(require_schema_dir() + "/crds/trainer.kubeflow.org_trainjobs.yaml"), "trainjobs");
}

json runtime_file(const std::string& file) {
  const auto dir = find_trainer_runtimes_dir();
  if (!dir) FAIL("no Kubeflow Trainer runtimes (../shared/trainer-runtimes)");
  return yaml::parse(read_file(*dir + "/" + file), file);
}

}  // namespace

TEST_CASE("submit trainjob renders only what was asked, valid against the TrainJob CRD") {
  auto objects = submit_objects("trainjob", {"--name=mnist", "--runtime=torch-distributed"});
  REQUIRE(objects.size() == 1);
  const json& tj = objects[0];
  CHECK(tj["kind"] == "TrainJob");
  // kind and apiGroup are the CRD's defaults (ClusterTrainingRuntime, trainer.kubeflow.org).
  CHECK(tj["spec"]["runtimeRef"] == json{{"name", "torch-distributed"}});
  // The runtime's image, command and pods stay the runtime's.
  CHECK(tj["spec"]["trainer"] == json{{"numNodes", 1}});
  CHECK_FALSE(tj["spec"].contains("runtimePatches"));
  CHECK_FALSE(tj["spec"].contains("initializer"));
  CHECK(tj["metadata"]["labels"]["app"] == "trainjob");
}

TEST_CASE("submit trainjob maps the common flags onto trainer, initializer and one runtimePatches entry") {
  auto objects = submit_objects(
      "trainjob", {"--name=llm", "--runtime=torchtune-llama3.2-1b", "--runtime-kind=TrainingRuntime", "--workers=2",
                   "--gpus=2", "--cpu=8", "--memory=32Gi", "--nproc-per-node=2", "--image=my/torch:1", "-e", "EPOCHS=3",
                   "--data=ckpt:/ckpt", "--label=team=a", "--annotation=note=x", "--toleration=gpu=yes:NoSchedule",
                   "--selector=pool=gpu", "--image-pull-secret=regcred", "--service-account=trainer",
                   "--dataset-uri=hf://tatsu-lab/alpaca", "--model-uri=hf://meta-llama/Llama-3.2-1B-Instruct",
                   "--kueue-queue=team-a", "--running-timeout=2h", "--arg=--epochs=1", "torchrun train.py"});
  REQUIRE(objects.size() == 1);
  const json& tj = objects[0];
  const json& spec = tj["spec"];
  CHECK(spec["runtimeRef"]["kind"] == "TrainingRuntime");
  CHECK(spec["activeDeadlineSeconds"] == 7200);
  CHECK(spec["initializer"]["dataset"]["storageUri"] == "hf://tatsu-lab/alpaca");
  CHECK(spec["initializer"]["model"]["storageUri"] == "hf://meta-llama/Llama-3.2-1B-Instruct");
  const json& t = spec["trainer"];
  CHECK(t["image"] == "my/torch:1");
  CHECK(t["numNodes"] == 2);
  CHECK(t["numProcPerNode"] == 2);
  CHECK(t["command"] == json::array({"sh", "-c", "cd '/root' && torchrun train.py"}));
  CHECK(t["args"] == json::array({"--epochs=1"}));
  CHECK(t["env"] == json::array({{{"name", "EPOCHS"}, {"value", "3"}}}));
  CHECK(t["resourcesPerNode"]["limits"] == json{{"cpu", "8"}, {"memory", "32Gi"}, {"nvidia.com/gpu", "2"}});
  CHECK(tj["metadata"]["labels"]["kueue.x-k8s.io/queue-name"] == "team-a");
  CHECK(tj["metadata"]["labels"]["team"] == "a");
  // One entry, on the runtime's node job; env never on container node (jobset.go Validate).
  REQUIRE(spec["runtimePatches"].size() == 1);
  CHECK(spec["runtimePatches"][0]["manager"] == "trainctl.io/submit");
  const json& pod = patch_pod(tj);
  CHECK(pod["metadata"]["labels"] == json{{"team", "a"}});
  CHECK(pod["metadata"]["annotations"] == json{{"note", "x"}});
  CHECK(pod["spec"]["nodeSelector"] == json{{"pool", "gpu"}});
  CHECK(pod["spec"]["tolerations"][0]["key"] == "gpu");
  CHECK(pod["spec"]["serviceAccountName"] == "trainer");
  CHECK(pod["spec"]["imagePullSecrets"] == json::array({{{"name", "regcred"}}}));
  CHECK(pod["spec"]["volumes"][0]["persistentVolumeClaim"]["claimName"] == "ckpt");
  CHECK(pod["spec"]["containers"] ==
        json::array({{{"name", "node"}, {"volumeMounts", json::array({{{"name", "ckpt"}, {"mountPath", "/ckpt"}}})}}}));
  // Arena's implicit annotation stays on the TrainJob, not on the pods.
  CHECK(tj["metadata"]["annotations"]["requestGPUsOfJobOwner"] == "4");
}

TEST_CASE("submit pytorch --api trainer renders the seed-000 job as a TrainJob on torch-distributed") {
  auto objects = submit_objects(
      "pytorch", {"--api=trainer", "--name=pytorch-dist", "--gpus=1", "--workers=3", "--working-dir=/root",
                  "--image=registry.cn-beijing.aliyuncs.com/ai-samples/pytorch-with-tensorboard:1.5.1-cuda10.1-cudnn7-runtime",
                  "--data=training-data:/mnist_data", "--tensorboard", "--logdir=/mnist_data/pytorch_data/logs",
                  "python /root/code/mnist-pytorch/mnist.py --epochs 10 --backend nccl"});
  const json& tj = object_of_kind(objects, "TrainJob");
  CHECK(tj["spec"]["runtimeRef"]["name"] == "torch-distributed");
  CHECK(tj["spec"]["trainer"]["numNodes"] == 3);
  CHECK(tj["spec"]["trainer"]["resourcesPerNode"]["limits"]["nvidia.com/gpu"] == "1");
  // TensorBoard reads the logs from the PVC the job writes them to.
  const json& tb = object_of_kind(objects, "Deployment");
  CHECK(tb["metadata"]["name"] == "pytorch-dist-tensorboard");
  object_of_kind(objects, "Service");
}

TEST_CASE("a TrainJob's TensorBoard on a host path follows node 0 of the JobSet") {
  auto objects = submit_objects("trainjob", {"--name=tb", "--runtime=torch-distributed", "--tensorboard",
                                             "--logdir=/logs", "torchrun train.py"});
  const json& pod = patch_pod(object_of_kind(objects, "TrainJob"));
  CHECK(pod["spec"]["volumes"][0]["hostPath"]["path"] == "/trainctl_logs/default/tb");
  const json& tb = object_of_kind(objects, "Deployment");
  const json terms = tb["spec"]["template"]["spec"]["affinity"]["podAffinity"]
                       ["requiredDuringSchedulingIgnoredDuringExecution"][0]["labelSelector"]["matchLabels"];
  CHECK(terms["jobset.sigs.k8s.io/jobset-name"] == "tb");
  CHECK(terms["batch.kubernetes.io/job-completion-index"] == "0");
}

TEST_CASE("what a TrainJob cannot carry is refused in one line") {
  auto refused = [](std::vector<std::string> args, const std::string& kind = "trainjob") {
    if (kind == "trainjob") args.push_back("--runtime=torch-distributed");
    args.push_back("--name=x");
    try {
      render_submit(parse_submit(kind, args));
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string("not refused");
  };
  CHECK_THAT(refused({"--api=trainer", kImage, "--priority=high", "python a.py"}, "pytorch"),
             Catch::Contains("priorityClassName"));
  CHECK_THAT(refused({"--api=trainer", kImage, "--gang", "python a.py"}, "pytorch"),
             Catch::Contains("podGroupPolicy"));
  CHECK_THAT(refused({"-e", "PET_NNODES=2"}), Catch::Contains("torch plugin sets PET_NNODES"));
  CHECK_THAT(refused({"--nproc-per-node=gpu"}), Catch::Contains("takes a number"));
  CHECK_THAT(refused({"--dataset-uri=alpaca"}), Catch::Contains("invalid --dataset-uri"));
  CHECK_THAT(refused({"--runtime-kind=Runtime"}), Catch::Contains("use ClusterTrainingRuntime or TrainingRuntime"));
  CHECK_THAT(refused({"--api=trainer", kImage, "--operator=none", "python a.py"}, "pytorch"),
             Catch::Contains("disagree"));
  CHECK_THAT(refused({"--api=kubeflow", kImage, "python a.py"}, "pytorch"), Catch::Contains("invalid --api"));
}

TEST_CASE("submit trainjob needs --runtime; submit pytorch --api none stays the operator-free Job") {
  CHECK_THROWS_WITH(render_submit(parse_submit("trainjob", {"--name=x"})), Catch::Contains("--runtime is required"));
  auto objects = submit_objects("pytorch", {"--api=none", "--name=x", kImage, "--workers=2", "python a.py"});
  CHECK(objects[0]["kind"] == "Job");
}

TEST_CASE("runtimePatches need a TrainJob CRD of Trainer v2.2.0 or later") {
  const submit::SubmitKind& kind = submit::kinds::trainjob();
  json crd = trainjob_crd();
  submit::ServerFacts facts;
  kind.read_crd(crd, facts);
  CHECK(facts.runtime_patches_field);
  // v2.0.0 (podSpecOverrides) and v2.1.0 (podTemplateOverrides) have no spec.runtimePatches.
  crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"].erase("runtimePatches");
  kind.read_crd(crd, facts);
  CHECK_FALSE(facts.runtime_patches_field);
  auto plan = [](std::vector<std::string> args) {
    args.push_back("--name=x");
    args.push_back("--runtime=torch-distributed");
    auto o = parse_submit("trainjob", args);
    return submit::make_plan(o, "default", {});
  };
  submit::Plan bare = plan({});
  CHECK_NOTHROW(submit::apply_server_facts(facts, bare));
  submit::Plan patched = plan({"--selector=pool=gpu"});
  CHECK_THROWS_WITH(submit::apply_server_facts(facts, patched), Catch::Contains("Kubeflow Trainer v2.2.0 or later"));
  // v2.1.0 has no spec.activeDeadlineSeconds either.
  CHECK(facts.active_deadline_field);
  crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"].erase(
      "activeDeadlineSeconds");
  kind.read_crd(crd, facts);
  CHECK_FALSE(facts.active_deadline_field);
  submit::Plan deadline = plan({"--running-timeout=1h"});
  CHECK_THROWS_WITH(submit::apply_server_facts(facts, deadline), Catch::Contains("--running-timeout needs"));
}

TEST_CASE("runtime_of reads the shipped runtimes: framework, nodes, trainer image, node jobs") {
  auto torch = submit::runtime_of(runtime_file("torch_distributed.yaml"));
  CHECK(torch.name == "torch-distributed");
  CHECK(torch.kind == "ClusterTrainingRuntime");
  CHECK(torch.framework == "torch");
  CHECK(torch.num_nodes == 1);
  CHECK(torch.image == "pytorch/pytorch:2.13.0-cuda13.0-cudnn9-runtime");
  CHECK(torch.node_jobs == std::vector<std::string>{"node"});
  CHECK_FALSE(torch.deprecated);
  auto ds = submit::runtime_of(runtime_file("deepspeed_distributed.yaml"));
  CHECK(ds.framework == "deepspeed");
  CHECK(ds.node_jobs.size() == 2);  // launcher and node both run container "node"
  json deprecated = runtime_file("jax_distributed.yaml");
  deprecated["metadata"]["labels"]["trainer.kubeflow.org/support"] = "deprecated";
  CHECK(submit::runtime_of(deprecated).deprecated);
}

TEST_CASE("an unknown runtime is refused naming the ones the cluster has, before any create") {
  ScriptedClient client([](const kube::Request& r, int) -> kube::Response {
    if (r.method != "GET") FAIL("only reads are expected, got " << r.method << " " << r.path);
    if (r.path == "/apis/trainer.kubeflow.org/v1alpha1/clustertrainingruntimes/torch-distribute")
      ScriptedClient::fail(404, "NotFound", "not found");
    if (r.path == "/apis/trainer.kubeflow.org/v1alpha1/clustertrainingruntimes")
      return ScriptedClient::ok({{"items", json::array({{{"metadata", {{"name", "torch-distributed"}}}},
                                                         {{"metadata", {{"name", "jax-distributed"}}}}})}},
                                200);
    if (r.path == "/apis/trainer.kubeflow.org/v1alpha1/namespaces/default/trainingruntimes")
      return ScriptedClient::ok({{"items", json::array({{{"metadata", {{"name", "mine"}, {"namespace", "default"}}}}})}},
                                200);
    FAIL("unexpected " << r.path);
    return {};
  });
  submit::Plan p;
  submit::set_kind_part<submit::TrainJobPlan>(p).runtime_name = "torch-distribute";
  submit::set_kind_part<submit::TrainJobPlan>(p).runtime_kind = "ClusterTrainingRuntime";
  p.namespace_ = "default";
  CHECK_THROWS_WITH(submit::find_runtime(client, p),
                    "no ClusterTrainingRuntime \"torch-distribute\" in this cluster: it has jax-distributed, "
                    "torch-distributed (see trainctl runtime list)");
}

TEST_CASE("runtime list leaves out the TrainingRuntimes of one job unless asked; so does a missing runtime's line") {
  // The copy as submit --sync-mode makes it (the annotation) and once its job owns it; one
  // whose owner is a TrainJob only; a runtime of the namespace's own, owned by something else.
  const json copy_meta = {{"name", "a-code-sync"}, {"namespace", "default"},
                          {"annotations", {{"trainctl.io/copy-of", "ClusterTrainingRuntime/torch-distributed"}}}};
  json owned_copy_meta = copy_meta;
  owned_copy_meta["name"] = "b-code-sync";
  owned_copy_meta["ownerReferences"] = json::array(
      {{{"apiVersion", "trainer.kubeflow.org/v1alpha1"}, {"kind", "TrainJob"}, {"name", "b"}, {"uid", "u1"}}});
  const json only_owned_meta = {
      {"name", "c-runtime"},
      {"namespace", "default"},
      {"ownerReferences",
       json::array({{{"apiVersion", "trainer.kubeflow.org/v1alpha1"}, {"kind", "TrainJob"}, {"name", "c"}, {"uid", "u2"}}})}};
  const json mine_meta = {
      {"name", "mine"},
      {"namespace", "default"},
      {"ownerReferences", json::array({{{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"name", "x"}, {"uid", "u3"}}})}};
  ScriptedClient client([&](const kube::Request& r, int) -> kube::Response {
    if (r.path == "/apis/trainer.kubeflow.org/v1alpha1/clustertrainingruntimes")
      return ScriptedClient::ok({{"items", json::array({{{"metadata", {{"name", "torch-distributed"}}}}})}}, 200);
    if (r.path == "/apis/trainer.kubeflow.org/v1alpha1/namespaces/default/trainingruntimes")
      return ScriptedClient::ok({{"items", json::array({json{{"metadata", copy_meta}}, json{{"metadata", owned_copy_meta}},
                                                         json{{"metadata", only_owned_meta}},
                                                         json{{"metadata", mine_meta}}})}},
                                200);
    if (r.path == "/apis/trainer.kubeflow.org/v1alpha1/namespaces/default/trainingruntimes/gone")
      ScriptedClient::fail(404, "NotFound", "not found");
    FAIL("unexpected " << r.path);
    return {};
  });
  std::vector<std::string> names;
  for (const auto& r : submit::list_runtimes(client, "default")) names.push_back(r.name);
  CHECK(names == std::vector<std::string>{"torch-distributed", "mine"});
  const auto all = submit::list_runtimes(client, "default", true);
  REQUIRE(all.size() == 5);
  CHECK(all[1].name == "a-code-sync");
  CHECK(all[1].copy_of == "ClusterTrainingRuntime/torch-distributed");
  CHECK(all[1].owner_job.empty());  // its job not created yet, or gone before it owned it
  CHECK(all[2].owner_job == "b");
  CHECK(all[3].copy_of.empty());
  CHECK(all[3].owner_job == "c");
  CHECK_FALSE(all[4].of_one_job());
  // A TrainingRuntime that is not there: the line names the namespace's own runtime only.
  submit::Plan p;
  submit::set_kind_part<submit::TrainJobPlan>(p).runtime_name = "gone";
  submit::set_kind_part<submit::TrainJobPlan>(p).runtime_kind = "TrainingRuntime";
  p.namespace_ = "default";
  CHECK_THROWS_WITH(submit::find_runtime(client, p),
                    "no TrainingRuntime \"gone\" in namespace default: it has mine (see trainctl runtime list)");
}

TEST_CASE("submit pytorch picks a TrainJob only where the cluster serves Trainer v2 and no PyTorchJob") {
  auto client_for = [](bool pytorch, bool trainer) {
    return ScriptedClient([=](const kube::Request& r, int) -> kube::Response {
      if (r.path == "/apis/kubeflow.org/v1") {
        if (!pytorch) ScriptedClient::fail(404, "NotFound", "not found");
        return ScriptedClient::ok({{"resources", json::array({{{"name", "pytorchjobs"}}})}}, 200);
      }
      if (!trainer) ScriptedClient::fail(404, "NotFound", "not found");
      return ScriptedClient::ok({{"resources", json::array({{{"name", "trainjobs"}}})}}, 200);
    });
  };
  auto only_trainer = client_for(false, true);
  CHECK(submit::serves_only_trainer_v2(only_trainer));
  auto both = client_for(true, true);
  CHECK_FALSE(submit::serves_only_trainer_v2(both));
  auto neither = client_for(false, false);
  CHECK_FALSE(submit::serves_only_trainer_v2(neither));
  ScriptedClient forbidden([](const kube::Request&, int) -> kube::Response {
    ScriptedClient::fail(403, "Forbidden", "no");
  });
  CHECK_FALSE(submit::serves_only_trainer_v2(forbidden));
}
