// Every `arena submit` command line of the seed documents, with `trainctl` in place of
// `arena`, parsed by the real flag registration (argv as the shell passes it), rendered,
// validated against the real schemas, and checked for what the seed expects.
#include <catch2/catch.hpp>

#include "submit_testing.h"

using namespace trainctl::testing;
using nlohmann::json;

namespace {
const std::string kSeed004Image =
    "registry.cn-hangzhou.aliyuncs.com/kubernetes-image-hub/pytorch-benchmark:torch1.6.0-py3.7-cuda10.1";
// The shell joins "...-np "4" -bind-to..." into one word without the inner quotes.
std::string seed004_command(const std::string& model) {
  return "mpirun --allow-run-as-root -np 4 -bind-to none -map-by slot -x NCCL_DEBUG=INFO -x "
         "NCCL_SOCKET_IFNAME=eth0 "
         "-x LD_LIBRARY_PATH -x PATH --mca pml ob1 --mca btl_tcp_if_include eth0 --mca oob_tcp_if_include "
         "eth0 "
         "--mca orte_keep_fqdn_hostnames t --mca btl ^openib python /examples/pytorch_synthetic_benchmark.py "
         "--model=" +
         model + " --batch-size=64";
}
}  // namespace

TEST_CASE("seed 000: submit pytorch with git sync, PVC and TensorBoard", "[seed]") {
  auto objs = submit_objects(
      "pytorch",
      {"--name=pytorch-dist", "--gpus=1", "--workers=3", "--working-dir=/root",
       "--image=registry.cn-beijing.aliyuncs.com/ai-samples/"
       "pytorch-with-tensorboard:1.5.1-cuda10.1-cudnn7-runtime",
       "--sync-mode=git", "--sync-source=https://code.aliyun.com/370272561/mnist-pytorch.git",
       "--data=training-data:/mnist_data", "--tensorboard", "--logdir=/mnist_data/pytorch_data/logs",
       "python /root/code/mnist-pytorch/mnist.py --epochs 10 --backend nccl --dir "
       "/mnist_data/pytorch_data/logs "
       "--data /mnist_data/pytorch_data/"});
  REQUIRE(objs.size() == 3);
  const json& job = objs[0];
  CHECK(job["kind"] == "PyTorchJob");
  CHECK(job["spec"]["pytorchReplicaSpecs"]["Master"]["replicas"] == 1);
  CHECK(job["spec"]["pytorchReplicaSpecs"]["Worker"]["replicas"] == 2);  // 3 pods, the master included
  const json& c = main_container(job, "Worker");
  CHECK(c["resources"]["limits"]["nvidia.com/gpu"] == "1");
  CHECK(c["command"] ==
        json::array({"sh", "-c",
                     "python /root/code/mnist-pytorch/mnist.py --epochs 10 --backend nccl --dir "
                     "/mnist_data/pytorch_data/logs --data /mnist_data/pytorch_data/"}));
  // The code lands in /root/code/mnist-pytorch: git-sync writes DEST under ROOT=/code, which is
  // WORKING_DIR/code in the trainer.
  const json& init = pod_spec(job, "Master")["initContainers"][0];
  CHECK(init["name"] == "init-code");
  CHECK(env_value(init, "GIT_SYNC_REPO") == "https://code.aliyun.com/370272561/mnist-pytorch.git");
  CHECK(env_value(init, "GIT_SYNC_DEST") == "mnist-pytorch");
  CHECK(env_value(init, "GIT_SYNC_ROOT") == "/code");
  CHECK(c["volumeMounts"].dump().find(R"({"mountPath":"/root/code","name":"code-sync"})") !=
        std::string::npos);
  CHECK(c["volumeMounts"].dump().find(R"({"mountPath":"/mnist_data","name":"training-data"})") !=
        std::string::npos);
  const json& svc = objs[2];
  CHECK(svc["kind"] == "Service");
  CHECK(svc["metadata"]["name"] == "pytorch-dist-tensorboard");
  CHECK(svc["spec"]["type"] == "NodePort");
  const json& tb = object_of_kind(objs, "Deployment");
  CHECK(tb["spec"]["template"]["spec"]["containers"][0]["command"][2] == "/mnist_data/pytorch_data/logs");
}

TEST_CASE("seed 000: --worker-image gives the workers their image; alone it is every pod's", "[seed]") {
  // Seed 000's parameter table: --worker-image is required when --image is not given, and
  // overrides --image for the workers when both are.
  auto both = submit_objects("pytorch", {"--name=wi", "--workers=3", "--image=pytorch/pytorch:2.3",
                                         "--worker-image=pytorch/pytorch:2.3-worker", "python train.py"});
  CHECK(main_container(both[0], "Master")["image"] == "pytorch/pytorch:2.3");
  CHECK(main_container(both[0], "Worker")["image"] == "pytorch/pytorch:2.3-worker");
  auto alone = submit_objects("pytorch", {"--name=wi", "--workers=2", "--worker-image=pytorch/pytorch:2.3-worker",
                                          "python train.py"});
  CHECK(main_container(alone[0], "Master")["image"] == "pytorch/pytorch:2.3-worker");
  CHECK(main_container(alone[0], "Worker")["image"] == "pytorch/pytorch:2.3-worker");
  auto none = submit_objects("pytorch", {"--name=wi", "--workers=2", "--operator=none",
                                         "--worker-image=pytorch/pytorch:2.3", "python train.py"});
  CHECK(main_container(object_of_kind(none, "Job"), "")["image"] == "pytorch/pytorch:2.3");
}

TEST_CASE("seed 000: private git repository credentials reach git-sync through --env", "[seed]") {
  // `arena --loglevel info submit pytorch ... --env=GIT_SYNC_USERNAME=yourname ...`; --loglevel is
  // a global flag of the root command, the rest is the submit command line.
  auto objs = submit_objects(
      "pytorch", {"--name=pytorch-git",
                  "--image=registry.cn-beijing.aliyuncs.com/ai-samples/"
                  "pytorch-with-tensorboard:1.5.1-cuda10.1-cudnn7-runtime",
                  "--sync-mode=git", "--sync-source=https://code.aliyun.com/370272561/mnist-pytorch.git",
                  "--env=GIT_SYNC_USERNAME=yourname", "--env=GIT_SYNC_PASSWORD=yourpwd",
                  "python /root/code/mnist-pytorch/mnist.py --backend gloo"});
  const json& init = pod_spec(objs[0], "Master")["initContainers"][0];
  CHECK(env_value(init, "GIT_SYNC_USERNAME") == "yourname");
  CHECK(env_value(init, "GIT_SYNC_PASSWORD") == "yourpwd");
  CHECK(env_value(init, "GIT_SYNC_ONE_TIME") == "true");
}

TEST_CASE("seed 001: MPIJob v2beta1 scheduling policy from flags", "[seed]") {
  auto objs = submit_objects(
      "mpi", {"--name=tensorflow-benchmarks", "--image=mpioperator/tensorflow-benchmarks:latest",
              "--workers=10", "--gpus=2", "--clean-task-policy=Running", "--min-available=10",
              "--queue=test-queue", "--min-resources=cpu=3000m", "--priority=high", "--schedule-timeout=180",
              "--annotation=sidecar.istio.io/inject=false",
              "mpirun --allow-run-as-root -np 2 python scripts/tf_cnn_benchmarks/tf_cnn_benchmarks.py"});
  const json& spec = objs[0]["spec"];
  CHECK(objs[0]["apiVersion"] == "kubeflow.org/v2beta1");
  CHECK(spec["slotsPerWorker"] == 2);  // = GPUs per worker, as in the seed's example
  CHECK(spec["runPolicy"]["cleanPodPolicy"] == "Running");
  CHECK(spec["runPolicy"]["schedulingPolicy"] == json::parse(R"({"minAvailable": 10, "queue": "test-queue",
      "minResources": {"cpu": "3000m"}, "priorityClass": "high", "scheduleTimeoutSeconds": 180})"));
  CHECK(spec["mpiReplicaSpecs"]["Launcher"]["replicas"] == 1);
  CHECK(spec["mpiReplicaSpecs"]["Worker"]["replicas"] == 10);  // the gang: the workers, not the launcher
  CHECK(spec["mpiReplicaSpecs"]["Worker"]["template"]["metadata"]["annotations"]["sidecar.istio.io/inject"] ==
        "false");
  CHECK(
      spec["mpiReplicaSpecs"]["Launcher"]["template"]["metadata"]["annotations"]["sidecar.istio.io/inject"] ==
      "false");
  CHECK(main_container(objs[0], "Worker")["resources"]["limits"]["nvidia.com/gpu"] == "2");
  CHECK_FALSE(main_container(objs[0], "Launcher").contains("resources"));  // the launcher has no GPUs
}

TEST_CASE("seed 002: PyTorch without an operator gets the launcher's environment", "[seed]") {
  auto objs =
      submit_objects("pytorch", {"--name=pytorchjob-xxx", "--image=pytorch/pytorch", "--workers=3",
                                 "--operator=none", "-e", "NCCL_DEBUG=INFO", "-e", "NCCL_IB_DISABLE=1", "-e",
                                 "NCCL_SOCKET_IFNAME=eth0", "python mnist.py"});
  REQUIRE(objs.size() == 2);
  const json& job = objs[0];
  CHECK(job["apiVersion"] == "batch/v1");
  CHECK(job["spec"]["completionMode"] == "Indexed");
  CHECK(job["spec"]["completions"] == 3);
  CHECK(job["spec"]["parallelism"] == 3);
  CHECK(job["metadata"]["labels"]["app"] == "pytorchjob");
  CHECK(job["metadata"]["labels"]["trainctl.io/operator"] == "none");
  const json& c = main_container(job, "");
  CHECK(env_value(c, "MASTER_ADDR") == "pytorchjob-xxx-0.pytorchjob-xxx");
  CHECK(env_value(c, "MASTER_PORT") == "23456");
  CHECK(env_value(c, "WORLD_SIZE") == "3");
  CHECK(env_value(c, "RANK")["fieldRef"]["fieldPath"] ==
        "metadata.annotations['batch.kubernetes.io/job-completion-index']");
  CHECK(env_value(c, "NCCL_DEBUG") == "INFO");
  CHECK(pod_spec(job, "")["subdomain"] == "pytorchjob-xxx");
  const json& svc = objs[1];
  CHECK(svc["kind"] == "Service");
  CHECK(svc["metadata"]["name"] == "pytorchjob-xxx");
  CHECK(svc["spec"]["clusterIP"] == "None");
  // The Service selects exactly the job's pods.
  for (const auto& [k, v] : svc["spec"]["selector"].items())
    CHECK(job["spec"]["template"]["metadata"]["labels"][k] == v);
}

TEST_CASE("seed 003: PaddlePaddle pserver + trainer on Volcano in one command line", "[seed]") {
  auto objs =
      submit_objects("volcano", {"--name=fluid-ctr", "--image=paddlepaddle/edl-example:ctr",
                                 "--task=pserver:2:paddlepaddle/edl-example:ctr:paddle_k8s start_pserver",
                                 "--task=trainer:2:paddlepaddle/edl-example:ctr:paddle_k8s start_trainer"});
  const json& spec = objs[0]["spec"];
  CHECK(objs[0]["apiVersion"] == "batch.volcano.sh/v1alpha1");
  CHECK(spec["schedulerName"] == "volcano");
  CHECK(spec["minAvailable"] == 4);  // all or nothing: every pserver and trainer
  CHECK(spec["policies"] == json::parse(R"([{"event": "PodEvicted", "action": "RestartJob"},
                                            {"event": "PodFailed", "action": "RestartJob"}])"));
  REQUIRE(spec["tasks"].size() == 2);
  CHECK(spec["tasks"][0]["name"] == "pserver");
  CHECK(spec["tasks"][0]["replicas"] == 2);
  CHECK(spec["tasks"][1]["name"] == "trainer");
  CHECK(main_container(objs[0], "pserver")["image"] == "paddlepaddle/edl-example:ctr");
  CHECK(main_container(objs[0], "pserver")["command"][2] == "paddle_k8s start_pserver");
  CHECK(main_container(objs[0], "trainer")["command"][2] == "paddle_k8s start_trainer");
}

TEST_CASE("seed 004: the four submit mpi command lines", "[seed]") {
  for (bool topo : {true, false}) {
    for (std::string model : {"vgg16", "resnet50"}) {
      std::string name = std::string("pytorch-") + (topo ? "topo-" : "") + "4-" + model;
      std::vector<std::string> args = {"--name=" + name, "--gpus=1", "--workers=4"};
      if (topo) args.push_back("--gputopology=true");
      args.push_back("--image=" + kSeed004Image);
      args.push_back(seed004_command(model));
      INFO(name);
      auto objs = submit_objects("mpi", args);
      const json& worker = objs[0]["spec"]["mpiReplicaSpecs"]["Worker"];
      CHECK(worker["replicas"] == 4);
      CHECK(main_container(objs[0], "Launcher")["command"][2] == seed004_command(model));
      const json& spec = pod_spec(objs[0], "Worker");
      const json& limits = main_container(objs[0], "Worker")["resources"]["limits"];
      const bool has_shm =
          spec.contains("volumes") && spec["volumes"].dump().find("dshm") != std::string::npos;
      if (topo) {
        CHECK(worker["template"]["metadata"]["labels"]["gpu-topology"] == name);
        CHECK(worker["template"]["metadata"]["labels"]["gpu-topology-replica"] == "4");
        // Not on the host network: v2beta1 workers run sshd, and seed 004 puts all four on one
        // node, whose port the second could not bind (docs/operators.md §2.7).
        for (const char* replica : {"Launcher", "Worker"}) {
          CHECK_FALSE(pod_spec(objs[0], replica).contains("hostNetwork"));
          CHECK_FALSE(pod_spec(objs[0], replica).contains("dnsPolicy"));
        }
        CHECK(limits["aliyun.com/gpu"] == "1");
        CHECK_FALSE(limits.contains("nvidia.com/gpu"));
        CHECK_FALSE(has_shm);
      } else {
        CHECK_FALSE(worker["template"]["metadata"]["labels"].contains("gpu-topology"));
        CHECK_FALSE(spec.contains("hostNetwork"));
        CHECK(limits["nvidia.com/gpu"] == "1");
        CHECK(has_shm);
      }
    }
  }
}
