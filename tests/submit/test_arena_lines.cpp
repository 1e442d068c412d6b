// Arena's command lines mean in trainctl what they mean in Arena (kubeflow/arena
// pkg/argsbuilder/submit.go, util.go; pkg/commands/training/submit_pytorchjob.go), or are
// refused with one line saying what to write instead.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "core/errors.h"
#include "submit/plan.h"
#include "submit_testing.h"
#include "support/paths.h"

using namespace trainctl;
using namespace trainctl::testing;
using nlohmann::json;

namespace {


std::string usage_error(const std::string& kind, const std::vector<std::string>& args) {
  auto o = parse_submit(kind, args);
  try {
    submit::make_plan(o, "default", {});
  } catch (const UsageError& e) {
    return e.what();
  }
  FAIL("no UsageError");
  return "";
}

}  // namespace

TEST_CASE("--queue is Arena's kube-queue switch; --queue=NAME names the gang queue", "[arena]") {
  // `arena submit pytorch --queue "python train.py"`: the command stays the command.
  auto objs = submit_objects("pytorch", {"--name=q", kImage, "--workers=2", "--queue", "python train.py"});
  CHECK(main_container(objs[0], "Master")["command"][2] == "python train.py");
  CHECK(objs[0]["metadata"]["annotations"]["scheduling.x-k8s.io/suspend"] == "true");
  CHECK(objs[0]["spec"]["pytorchReplicaSpecs"]["Worker"]["template"]["metadata"]["annotations"]
            ["scheduling.x-k8s.io/suspend"] == "true");
  CHECK_FALSE(objs[0]["spec"]["runPolicy"].contains("schedulingPolicy"));
  auto t = submit_objects("mpi", {"--name=q", kImage, "--queue=true", "mpirun x"});
  CHECK(t[0]["metadata"]["annotations"]["scheduling.x-k8s.io/suspend"] == "true");

  auto named = submit_objects("pytorch", {"--name=q", kImage, "--queue=research", "python train.py"});
  CHECK(named[0]["spec"]["runPolicy"]["schedulingPolicy"]["queue"] == "research");
  CHECK_FALSE(named[0]["metadata"]["annotations"].contains("scheduling.x-k8s.io/suspend"));

  // Arena refuses pytorch and mpi submits without a command ("not found command args").
  CHECK(usage_error("pytorch", {"--name=q", kImage, "--queue"}).find("needs the command to run") !=
        std::string::npos);
  CHECK(usage_error("mpi", {"--name=q", kImage}) ==
        "submit mpi needs the command to run, as its last argument, e.g. \"python train.py\"");
  CHECK(usage_error("pytorch", {"--name=q", kImage, "--operator=none", "--queue", "python x"})
            .find("need the training-operator") != std::string::npos);
}

// addPodGroupLabel: scheduler-plugins' coscheduling labels, name TYPE-NAME, min-available.
TEST_CASE("--gang renders the coscheduling pod labels beside runPolicy.schedulingPolicy", "[arena]") {
  auto objs = submit_objects("pytorch", {"--name=g", kImage, "--workers=3", "--gang", "python train.py"});
  CHECK(objs[0]["spec"]["runPolicy"]["schedulingPolicy"]["minAvailable"] == 3);
  for (const char* replica : {"Master", "Worker"}) {
    const json& labels = objs[0]["spec"]["pytorchReplicaSpecs"][replica]["template"]["metadata"]["labels"];
    CHECK(labels["pod-group.scheduling.sigs.k8s.io/name"] == "pytorchjob-g");
    CHECK(labels["pod-group.scheduling.sigs.k8s.io/min-available"] == "3");
  }
  auto mpi = submit_objects("mpi", {"--name=g", kImage, "--workers=2", "--gang", "mpirun x"});
  const json& wl = mpi[0]["spec"]["mpiReplicaSpecs"]["Worker"]["template"]["metadata"]["labels"];
  CHECK(wl["pod-group.scheduling.sigs.k8s.io/name"] == "mpijob-g");
  CHECK(wl["pod-group.scheduling.sigs.k8s.io/min-available"] == "2");
  auto plain = submit_objects("pytorch", {"--name=g", kImage, "python train.py"});
  CHECK_FALSE(plain[0]["spec"]["pytorchReplicaSpecs"]["Master"]["template"]["metadata"]["labels"].contains(
      "pod-group.scheduling.sigs.k8s.io/name"));
}

// parseTolerationString: "key=value:effect,operator"; plus trainctl's shorter forms.
TEST_CASE("--toleration takes Arena's key=value:effect,operator form", "[arena]") {
  auto objs = submit_objects("pytorch", {"--name=t", kImage, "--toleration=gpu=true:NoSchedule,Equal",
                                         "--toleration=dedicated=:NoExecute,Exists", "--toleration=spot",
                                         "--toleration=zone=a", "--toleration=all", "python x"});
  CHECK(pod_spec(objs[0], "Master")["tolerations"] == json::parse(R"([
      {"key": "gpu", "operator": "Equal", "value": "true", "effect": "NoSchedule"},
      {"key": "dedicated", "operator": "Exists", "effect": "NoExecute"},
      {"key": "spot", "operator": "Exists"},
      {"key": "zone", "operator": "Equal", "value": "a"},
      {"operator": "Exists"}])"));
  CHECK(usage_error("pytorch", {"--name=t", kImage, "--toleration=a=b:NoSchedule,Exists", "x"})
            .find("the operator Exists takes no value") != std::string::npos);
  CHECK(usage_error("pytorch", {"--name=t", kImage, "--toleration=a=b:Sometimes,Equal", "x"})
            .find("unknown effect \"Sometimes\"") != std::string::npos);
  CHECK(usage_error("pytorch", {"--name=t", kImage, "--toleration=a=b:NoSchedule,In", "x"})
            .find("unknown operator \"In\"") != std::string::npos);
}

// setConfigFiles: a relative host path is made absolute, and is the container path too.
TEST_CASE("--config-file with a relative host path and no container path", "[arena]") {
  namespace fs = std::filesystem;
  const fs::path dir = make_temp_dir("config-rel");
  std::ofstream(dir / "rel.conf") << "lr=0.1\n";
  const std::string rel = fs::relative(dir / "rel.conf").string();
  REQUIRE(rel.front() != '/');
  auto objs = submit_objects("pytorch", {"--name=c", kImage, "--config-file", rel, "python x"});
  const json& cm = object_of_kind(objs, "ConfigMap");
  CHECK(cm["data"]["rel.conf"] == "lr=0.1\n");
  const std::string abs_dir = fs::absolute(dir).lexically_normal().string();
  bool mounted = false;
  for (const auto& m : main_container(objs[0], "Master")["volumeMounts"]) mounted |= m["mountPath"] == abs_dir;
  CHECK(mounted);

  const char* old_home = std::getenv("HOME");
  const std::string saved = old_home ? old_home : "";
  setenv("HOME", dir.c_str(), 1);
  auto home = render_submit(parse_submit("pytorch", {"--name=c", kImage, "--config-file=~/rel.conf:/etc/app/rel.conf", "x"}));
  setenv("HOME", saved.c_str(), 1);
  CHECK(object_of_kind(home, "ConfigMap")["data"]["rel.conf"] == "lr=0.1\n");
}

// ValidateDevices: a qualified name and any quantity; nvidia.com/gpu belongs to --gpus.
TEST_CASE("--device takes the forms Arena takes", "[arena]") {
  auto objs = submit_objects("pytorch", {"--name=d", kImage, "--device=aliyun.com/gpu-mem=8",
                                         "--device=hugepages-2Mi=1Gi", "--device=amd.com/gpu=0", "python x"});
  const json& limits = main_container(objs[0], "Master")["resources"]["limits"];
  CHECK(limits["aliyun.com/gpu-mem"] == "8");
  CHECK(limits["hugepages-2Mi"] == "1Gi");
  CHECK(limits["amd.com/gpu"] == "0");
  CHECK(usage_error("pytorch", {"--name=d", kImage, "--device=Nvidia.com/GPU=1", "x"})
            .find("give GPUs with --gpus 1") != std::string::npos);
  CHECK(usage_error("pytorch", {"--name=d", kImage, "--device=amd.com/gpu=0.5", "x"})
            .find("must be a whole number") != std::string::npos);
  CHECK(usage_error("pytorch", {"--name=d", kImage, "--device=amd.com/gpu=lots", "x"})
            .find("is not a quantity") != std::string::npos);
  CHECK(usage_error("pytorch", {"--name=d", kImage, "--device=cpu=2", "x"}).find("give cpu with --cpu") !=
        std::string::npos);
  CHECK(usage_error("mpi", {"--name=d", kImage, "--gputopology", "--device=aliyun.com/gpu=1", "x"})
            .find("give GPUs with --gpus") != std::string::npos);
}

// submit_tensorboard.go: a logdir that is not a local path goes to TensorBoard as it is.
TEST_CASE("--logdir on an object store is passed to TensorBoard, nothing is mounted", "[arena]") {
  auto objs = submit_objects("pytorch", {"--name=tb", kImage, "--workers=2", "--tensorboard",
                                         "--logdir=oss://bucket/logs/run1", "python x"});
  const json& pod = object_of_kind(objs, "Deployment")["spec"]["template"]["spec"];
  CHECK(pod["containers"][0]["command"] ==
        json::parse(R"(["tensorboard", "--logdir", "oss://bucket/logs/run1", "--host", "0.0.0.0"])"));
  CHECK_FALSE(pod.contains("volumes"));
  CHECK_FALSE(pod.contains("affinity"));
  for (const auto& v : pod_spec(objs[0], "Master").value("volumes", json::array())) CHECK(v["name"] != "training-logs");
  CHECK(usage_error("pytorch", {"--name=tb", kImage, "--tensorboard", "--logdir=logs", "x"})
            .find("use an absolute path or a URL") != std::string::npos);
}

// setJobInfoToEnv, addRequestGPUsToAnnotation, --image-pull-policy's default Always.
TEST_CASE("Arena's workers and gpus variables, requestGPUsOfJobOwner, imagePullPolicy Always", "[arena]") {
  auto pt = submit_objects("pytorch", {"--name=e", kImage, "--workers=3", "--gpus=2", "--sync-mode=git",
                                       "--sync-source=https://example.com/a.git", "python x"});
  CHECK(pt[0]["metadata"]["annotations"]["requestGPUsOfJobOwner"] == "6");
  for (const char* replica : {"Master", "Worker"}) {
    const json& c = main_container(pt[0], replica);
    CHECK(env_value(c, "workers") == "3");
    CHECK(env_value(c, "gpus") == "2");
    CHECK(c["imagePullPolicy"] == "Always");
    CHECK(pod_spec(pt[0], replica)["initContainers"][0]["imagePullPolicy"] == "Always");
    CHECK(pt[0]["spec"]["pytorchReplicaSpecs"][replica]["template"]["metadata"]["annotations"]
              ["requestGPUsOfJobOwner"] == "6");
  }
  auto mpi = submit_objects("mpi", {"--name=e", kImage, "--workers=2", "--gpus=4", "mpirun -np $((workers*gpus)) x"});
  CHECK(mpi[0]["metadata"]["annotations"]["requestGPUsOfJobOwner"] == "8");
  CHECK(env_value(main_container(mpi[0], "Launcher"), "workers") == "2");
  CHECK(env_value(main_container(mpi[0], "Launcher"), "gpus") == "4");
  // The user's own values win.
  auto own = submit_objects("pytorch", {"--name=e", kImage, "-e", "workers=9", "-a", "requestGPUsOfJobOwner=1",
                                        "--image-pull-policy=IfNotPresent", "python x"});
  CHECK(env_value(main_container(own[0], "Master"), "workers") == "9");
  CHECK(own[0]["metadata"]["annotations"]["requestGPUsOfJobOwner"] == "1");
  CHECK(main_container(own[0], "Master")["imagePullPolicy"] == "IfNotPresent");
}
