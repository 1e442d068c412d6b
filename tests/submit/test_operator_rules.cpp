// What the real operators need of a manifest for the job to train, read from their sources
// (docs/operators.md lists them). Each case names the upstream file that decides the rule.
#include <catch2/catch.hpp>

#include "core/file.h"
#include "submit/plan.h"
#include "submit/server_facts.h"
#include "submit_testing.h"
#include "support/paths.h"
#include "yaml/read.h"

using namespace trainctl;
using namespace trainctl::testing;
using nlohmann::json;

namespace {


json env_names(const json& container) {
  json names = json::array();
  for (const auto& e : container.value("env", json::array())) names.push_back(e["name"]);
  return names;
}

json field_ref(const json& container, const std::string& name) {
  for (const auto& e : container.value("env", json::array()))
    if (e["name"] == name) return e["valueFrom"]["fieldRef"]["fieldPath"];
  return nullptr;
}

json real_crd(const std::string& file) {
  return yaml::parse(read_file(require_schema_dir() + "/crds/" + file), file);
}

}  // namespace

// mpi-operator v0.8.0 pkg/controller/mpi_job_controller.go: with AtStartup (the default of
// v2beta1/default.go) the launcher Job is created before the workers are ready, and its
// backoffLimit is runPolicy.backoffLimit as given.
TEST_CASE("MPIJob: the launcher waits for the workers; backoffLimit only from --retry", "[operators][mpi]") {
  auto objs = submit_objects("mpi", {"--name=m", kImage, "--workers=2", "mpirun python train.py"});
  const json& spec = objs[0]["spec"];
  CHECK(spec["launcherCreationPolicy"] == "WaitForWorkersReady");
  CHECK_FALSE(spec["runPolicy"].contains("backoffLimit"));  // the launcher Job's own default (6)
  auto retried = submit_objects("mpi", {"--name=m", kImage, "--retry=3", "mpirun python train.py"});
  CHECK(retried[0]["spec"]["runPolicy"]["backoffLimit"] == 3);
  auto none = submit_objects("mpi", {"--name=m", kImage, "--retry=0", "mpirun python train.py"});
  CHECK(none[0]["spec"]["runPolicy"]["backoffLimit"] == 0);
  // The same for the training-operator: an unset backoffLimit never fails a job for restarts
  // of its OnFailure workers (common/job.go PastBackoffLimit).
  auto pt = submit_objects("pytorch", {"--name=p", kImage, "--workers=2", "python train.py"});
  CHECK_FALSE(pt[0]["spec"]["runPolicy"].contains("backoffLimit"));
}

TEST_CASE("MPIJob: a gang counts the workers only, the launcher comes after them", "[operators][mpi]") {
  auto objs = submit_objects("mpi", {"--name=m", kImage, "--workers=3", "--gang", "mpirun python train.py"});
  CHECK(objs[0]["spec"]["runPolicy"]["schedulingPolicy"]["minAvailable"] == 3);
  CHECK(objs[0]["spec"]["launcherCreationPolicy"] == "WaitForWorkersReady");
  auto o = parse_submit("mpi", {"--name=m", kImage, "--workers=3", "--min-available=5", "mpirun x"});
  CHECK_THROWS_WITH(submit::make_plan(o, "default", {}),
                    Catch::Contains("--min-available 5 is more than the 4 pods of the job"));
}

// Seed 001: mpi-operator's own minAvailable is "one launcher and the workers"
// (podgroup.go calculateMinAvailable). Such a gang forms only when the launcher is created
// with the workers (mpi_job_controller.go syncHandler: AtStartup), so trainctl asks for that.
TEST_CASE("MPIJob: a gang that counts the launcher creates it at startup", "[operators][mpi][seed]") {
  for (const std::vector<std::string>& flags :
       {std::vector<std::string>{"--gang", "--min-available", "2"}, {"--min-available=2"}, {"--gang", "--minAvailable=2"}}) {
    std::vector<std::string> args = {"--name=m", kImage, "--workers", "1"};
    args.insert(args.end(), flags.begin(), flags.end());
    args.push_back("mpirun python train.py");
    auto objs = submit_objects("mpi", args);  // validated against the real MPIJob CRD
    CHECK(objs[0]["spec"]["launcherCreationPolicy"] == "AtStartup");
    CHECK(objs[0]["spec"]["runPolicy"]["schedulingPolicy"]["minAvailable"] == 2);
  }
  // The coscheduling labels of --gang count the launcher too, and it carries them.
  auto objs = submit_objects("mpi", {"--name=m", kImage, "--workers=2", "--gang", "--min-available=3", "mpirun x"});
  const json& labels = objs[0]["spec"]["mpiReplicaSpecs"]["Launcher"]["template"]["metadata"]["labels"];
  CHECK(labels["pod-group.scheduling.sigs.k8s.io/min-available"] == "3");
  // An older CRD without the field: the launcher comes at once anyway; nothing to tell.
  auto o = parse_submit("mpi", {"--name=m", kImage, "--workers=1", "--gang", "--min-available=2", "mpirun x"});
  submit::Plan plan = submit::make_plan(o, "default", {});
  submit::ServerFacts facts;
  facts.launcher_creation_policy_field = false;
  CHECK(submit::apply_server_facts(facts, plan).empty());
  CHECK(render_submit_plan(plan)[0]["spec"]["runPolicy"]["schedulingPolicy"]["minAvailable"] == 2);
}

// Arena's mpijob chart gives the launcher no resources; mpi-operator keeps it off GPUs.
TEST_CASE("MPIJob: the launcher requests nothing of the workers' resources", "[operators][mpi]") {
  auto objs = submit_objects("mpi", {"--name=m", kImage, "--workers=2", "--gpus=2", "--cpu=8", "--memory=32Gi",
                                     "--device=amd.com/fpga=1", "--rdma", "mpirun python train.py"});
  const json& launcher = main_container(objs[0], "Launcher");
  CHECK_FALSE(launcher.contains("resources"));
  CHECK_FALSE(launcher.contains("securityContext"));  // IPC_LOCK is for RDMA, on the workers
  const json& worker = main_container(objs[0], "Worker");
  CHECK(worker["resources"]["limits"] ==
        json::parse(R"({"cpu": "8", "memory": "32Gi", "nvidia.com/gpu": "2", "amd.com/fpga": "1", "rdma/hca": "1"})"));
  auto sized = submit_objects("mpi", {"--name=m", kImage, "--cpu=8", "--launcher-cpu=1", "--launcher-memory=2Gi",
                                      "--sync-mode=git", "--sync-source=https://example.com/a.git", "mpirun x"});
  const json& l = main_container(sized[0], "Launcher");
  CHECK(l["resources"]["requests"] == json::parse(R"({"cpu": "1", "memory": "2Gi"})"));
  CHECK(l["resources"]["limits"] == json::parse(R"({"cpu": "1", "memory": "2Gi"})"));
  CHECK(pod_spec(sized[0], "Launcher")["initContainers"][0]["resources"]["limits"] ==
        json::parse(R"({"cpu": "1", "memory": "2Gi"})"));
  auto o = parse_submit("pytorch", {"--name=p", kImage, "--launcher-cpu=1", "python x"});
  CHECK_THROWS_WITH(submit::make_plan(o, "default", {}), Catch::Contains("only for submit mpi"));
}

// training-operator v1.9.0 pkg/controller.v1/pytorch/envvar.go setPodEnv and master.go:
// every container of a job with a Master gets these, in this order.
TEST_CASE("operator-free PyTorch: the environment the training-operator injects", "[operators][pytorch]") {
  auto objs = submit_objects("pytorch", {"--name=ddp", kImage, "--operator=none", "--workers=3", "--gpus=1",
                                         "torchrun train.py"});
  const json& c = main_container(object_of_kind(objs, "Job"), "");
  CHECK(env_names(c) == json::parse(R"(["PYTHONUNBUFFERED", "MASTER_PORT", "PET_MASTER_PORT", "MASTER_ADDR",
      "PET_MASTER_ADDR", "WORLD_SIZE", "PET_NPROC_PER_NODE", "PET_NNODES", "workers", "gpus", "RANK",
      "PET_NODE_RANK"])"));
  CHECK(env_value(c, "MASTER_ADDR") == "ddp-0.ddp");
  CHECK(env_value(c, "PET_MASTER_ADDR") == "ddp-0.ddp");
  CHECK(env_value(c, "MASTER_PORT") == "23456");  // the operator's default port
  CHECK(env_value(c, "PET_MASTER_PORT") == "23456");
  CHECK(env_value(c, "WORLD_SIZE") == "3");
  CHECK(env_value(c, "PET_NNODES") == "3");
  CHECK(env_value(c, "PET_NPROC_PER_NODE") == "auto");  // pytorch_defaults.go DefaultNprocPerNode
  const std::string index = "metadata.annotations['batch.kubernetes.io/job-completion-index']";
  CHECK(field_ref(c, "RANK") == index);
  CHECK(field_ref(c, "PET_NODE_RANK") == index);

  // WORLD_SIZE counts the processes when nprocPerNode is a number (getNprocPerNodeInt).
  auto four = submit_objects("pytorch", {"--name=ddp", kImage, "--operator=none", "--workers=2",
                                         "--nproc-per-node=4", "torchrun train.py"});
  const json& c4 = main_container(object_of_kind(four, "Job"), "");
  CHECK(env_value(c4, "WORLD_SIZE") == "8");
  CHECK(env_value(c4, "PET_NPROC_PER_NODE") == "4");
  auto gpu = submit_objects("pytorch", {"--name=ddp", kImage, "--operator=none", "--workers=2",
                                        "--nproc-per-node=gpu", "torchrun train.py"});
  CHECK(env_value(main_container(object_of_kind(gpu, "Job"), ""), "WORLD_SIZE") == "2");
}

// Server facts: an operator release older than the CRD trainctl renders for.
TEST_CASE("an installed CRD without spec.nprocPerNode: PET_NPROC_PER_NODE instead", "[operators][pytorch]") {
  json crd = real_crd("kubeflow.org_pytorchjobs.yaml");
  CHECK(submit::crd_has_field(crd, "v1", "spec.nprocPerNode"));
  CHECK(submit::crd_has_field(crd, "v1", "spec.runPolicy.schedulingPolicy.scheduleTimeoutSeconds"));
  CHECK_FALSE(submit::crd_has_field(crd, "v1", "spec.noSuchField"));
  CHECK_FALSE(submit::crd_has_field(crd, "v1", "spec.runPolicy.schedulingPolicy.noSuchField"));
  // A version the CRD does not serve is not judged: the create fails on its own terms.
  CHECK(submit::crd_has_field(crd, "v2", "spec.nprocPerNode"));
  crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"].erase("nprocPerNode");
  CHECK_FALSE(submit::crd_has_field(crd, "v1", "spec.nprocPerNode"));
  // A schema that keeps unknown fields (mpi-operator v0.3.0's spec) accepts anything.
  crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["x-kubernetes-preserve-unknown-fields"] = true;
  CHECK(submit::crd_has_field(crd, "v1", "spec.nprocPerNode"));

  auto o = parse_submit("pytorch", {"--name=p", kImage, "--workers=2", "--nproc-per-node=4", "torchrun x"});
  submit::Plan plan = submit::make_plan(o, "default", {});
  submit::ServerFacts facts;
  facts.nproc_per_node_field = false;
  auto notes = submit::apply_server_facts(facts, plan);
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].find("PET_NPROC_PER_NODE") != std::string::npos);
  auto objs = render_submit_plan(plan);
  require_valid(objs);
  CHECK_FALSE(objs[0]["spec"].contains("nprocPerNode"));
  for (const char* replica : {"Master", "Worker"}) CHECK(env_value(main_container(objs[0], replica), "PET_NPROC_PER_NODE") == "4");
}

TEST_CASE("an installed MPIJob CRD without launcherCreationPolicy: not sent, the gang counts the launcher",
          "[operators][mpi]") {
  json crd = real_crd("kubeflow.org_mpijobs.yaml");
  CHECK(submit::crd_has_field(crd, "v2beta1", "spec.launcherCreationPolicy"));
  auto o = parse_submit("mpi", {"--name=m", kImage, "--workers=2", "--gang", "mpirun x"});
  submit::Plan plan = submit::make_plan(o, "default", {});
  submit::ServerFacts facts;
  facts.launcher_creation_policy_field = false;
  CHECK(submit::apply_server_facts(facts, plan).size() == 1);
  auto objs = render_submit_plan(plan);
  CHECK_FALSE(objs[0]["spec"].contains("launcherCreationPolicy"));
  CHECK(objs[0]["spec"]["runPolicy"]["schedulingPolicy"]["minAvailable"] == 3);
}

TEST_CASE("server versions: gitVersion, or major/minor of older servers", "[operators]") {
  CHECK(submit::parse_server_version(json::parse(R"({"gitVersion": "v1.26.3"})")) == std::pair<int, int>{1, 26});
  CHECK(submit::parse_server_version(json::parse(R"({"gitVersion": "v1.28.2-gke.1034000"})")) ==
        std::pair<int, int>{1, 28});
  CHECK(submit::parse_server_version(json::parse(R"({"major": "1", "minor": "27+"})")) == std::pair<int, int>{1, 27});
  CHECK(submit::parse_server_version(json::parse(R"({"major": "x"})")) == std::pair<int, int>{0, 0});
}

// Arena pkg/argsbuilder/submit.go disabledNvidiaENVWithNoneGPURequest / hasAliyunGPUConfig.
TEST_CASE("GPU sharing keeps NVIDIA_VISIBLE_DEVICES to the device plugin", "[operators][gpu]") {
  auto plain = submit_objects("pytorch", {"--name=p", kImage, "python x"});
  CHECK(env_value(main_container(plain[0], "Master"), "NVIDIA_VISIBLE_DEVICES") == "void");
  auto mem = submit_objects("pytorch", {"--name=p", kImage, "--device=aliyun.com/gpu-mem=8", "python x"});
  CHECK(env_value(main_container(mem[0], "Master"), "NVIDIA_VISIBLE_DEVICES").is_null());
  CHECK(main_container(mem[0], "Master")["resources"]["limits"]["aliyun.com/gpu-mem"] == "8");
  auto count = submit_objects("mpi", {"--name=m", kImage, "-l", "aliyun.com/gpu-count=2", "mpirun x"});
  CHECK(env_value(main_container(count[0], "Worker"), "NVIDIA_VISIBLE_DEVICES").is_null());
}

// volcano-sh/volcano example/integrations/paddlepaddle/ctr-paddlepaddle-on-volcano.yaml:
// per-task labels the paddle launcher selects on, TaskCompleted -> CompleteJob on the trainers.
TEST_CASE("Volcano: task labels and policies, Arena's driver label, --task-images a,b", "[operators][volcano]") {
  auto objs = submit_objects(
      "volcano", {"--name=ctr", kImage, "--task=pserver:2", "--task=trainer:2",
                  "--task-label=pserver:paddle-job-pserver=ctr", "--task-label", "trainer:paddle-job=ctr",
                  "--task-policy=trainer:TaskCompleted=CompleteJob", "paddle_k8s start_fluid"});
  const json& spec = objs[0]["spec"];
  CHECK(spec["policies"] ==
        json::parse(R"([{"event": "PodEvicted", "action": "RestartJob"}, {"event": "PodFailed", "action": "RestartJob"}])"));
  const json& ps = spec["tasks"][0];
  const json& tr = spec["tasks"][1];
  CHECK_FALSE(ps.contains("policies"));
  CHECK(tr["policies"] == json::parse(R"([{"event": "TaskCompleted", "action": "CompleteJob"}])"));
  const json& ps_labels = ps["template"]["metadata"]["labels"];
  const json& tr_labels = tr["template"]["metadata"]["labels"];
  CHECK(ps_labels["paddle-job-pserver"] == "ctr");
  CHECK_FALSE(ps_labels.contains("paddle-job"));
  CHECK(tr_labels["paddle-job"] == "ctr");
  CHECK_FALSE(tr_labels.contains("paddle-job-pserver"));
  CHECK(ps_labels["volcano-role"] == "driver");  // Arena's chief rule (trainer_volcano.go isChiefPod)
  CHECK_FALSE(tr_labels.contains("volcano-role"));

  auto arena = submit_objects("volcano", {"--name=v", "--task-images=ubuntu,nginx", "--task-images", "busybox",
                                          "--policy=PodFailed=AbortJob", "sleep 1"});
  REQUIRE(arena[0]["spec"]["tasks"].size() == 3);
  CHECK(arena[0]["spec"]["tasks"][1]["name"] == "task-1");
  CHECK(arena[0]["spec"]["tasks"][1]["template"]["spec"]["containers"][0]["image"] == "nginx");
  CHECK(arena[0]["spec"]["policies"] == json::parse(R"([{"event": "PodFailed", "action": "AbortJob"}])"));

  for (const auto& [args, message] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"--task-label=ps:a=b"}, "the job has no task \"ps\" (tasks: task)"},
           {{"--task-policy=task:Done=CompleteJob"}, "unknown event \"Done\""},
           {{"--task-policy=task:TaskCompleted=Finish"}, "unknown action \"Finish\""},
           {{"--policy=PodFailed=AbortJob", "--policy=PodFailed=RestartJob"}, "gives event \"PodFailed\" twice"},
           {{"--policy=*=AbortJob", "--policy=PodFailed=RestartJob"}, "must be the only one"},
           {{"--task-label=task:bad key=1"}, "use TASK:KEY=VALUE"}}) {
    std::vector<std::string> a = {"--name=v", kImage};
    a.insert(a.end(), args.begin(), args.end());
    auto o = parse_submit("volcano", a);
    CHECK_THROWS_WITH(submit::make_plan(o, "default", {}), Catch::Contains(message));
  }
}

// Kubernetes 1.28 added the completion-index pod label (before: the annotation only); the
// legacy job-name label is on every release's Job pods.
TEST_CASE("operator-free TensorBoard follows the chief by label from 1.28, any pod before", "[operators][pytorch]") {
  auto o = parse_submit("pytorch", {"--name=tb", kImage, "--operator=none", "--workers=2", "--tensorboard", "python x"});
  submit::Plan plan = submit::make_plan(o, "default", {});
  auto affinity = [](const std::vector<json>& objs) {
    return object_of_kind(objs, "Deployment")["spec"]["template"]["spec"]["affinity"]["podAffinity"]
        ["requiredDuringSchedulingIgnoredDuringExecution"][0]["labelSelector"]["matchLabels"];
  };
  CHECK(affinity(render_submit_plan(plan)) ==
        json::parse(R"({"job-name": "tb", "batch.kubernetes.io/job-completion-index": "0"})"));
  submit::ServerFacts old;
  old.pod_index_label = false;
  CHECK(submit::apply_server_facts(old, plan).empty());
  CHECK(affinity(render_submit_plan(plan)) == json::parse(R"({"job-name": "tb"})"));
}

TEST_CASE("older operators and clusters: --schedule-timeout dropped, operator-free refused before 1.22",
          "[operators]") {
  auto o = parse_submit("pytorch", {"--name=p", kImage, "--gang", "--schedule-timeout=180s", "python x"});
  submit::Plan plan = submit::make_plan(o, "default", {});
  submit::ServerFacts facts;
  facts.schedule_timeout_field = false;  // training-operator before v1.6
  auto notes = submit::apply_server_facts(facts, plan);
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].find("--schedule-timeout is not sent") != std::string::npos);
  CHECK_FALSE(render_submit_plan(plan)[0]["spec"]["runPolicy"]["schedulingPolicy"].contains("scheduleTimeoutSeconds"));

  auto none = parse_submit("pytorch", {"--name=p", kImage, "--operator=none", "python x"});
  submit::Plan np = submit::make_plan(none, "default", {});
  submit::ServerFacts old;
  old.indexed_job_hostnames = false;
  old.server_version = "1.21";
  CHECK_THROWS_WITH(submit::apply_server_facts(old, np), Catch::Contains("needs Kubernetes 1.22 or later"));
}
