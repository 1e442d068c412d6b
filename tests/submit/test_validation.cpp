// Every bad input is refused before anything is rendered or sent: UsageError (exit 2) with
// one clear line.
#include <CLI/CLI.hpp>
#include <catch2/catch.hpp>

#include "core/errors.h"
#include "submit/plan.h"
#include "submit_testing.h"

using namespace trainctl;
using namespace trainctl::testing;

namespace {

struct Bad {
  std::string kind;
  std::vector<std::string> args;
  std::string message;  // expected to be contained in the error
};

std::string usage_error(const Bad& b) {
  auto o = parse_submit(b.kind, b.args);
  try {
    submit::make_plan(o, "default", {});
  } catch (const UsageError& e) {
    CHECK(e.code() == ExitCode::Usage);
    std::string msg = e.what();
    CHECK(msg.find('\n') == std::string::npos);
    return msg;
  }
  FAIL("no UsageError for " << b.kind);
  return "";
}

}  // namespace

TEST_CASE("each bad flag value gives a UsageError naming it", "[validation]") {
  const std::string img = "--image=pytorch/pytorch";
  const std::vector<Bad> cases = {
      {"pytorch", {"--name=Bad_Name", img}, "invalid --name \"Bad_Name\""},
      {"pytorch", {"--name=9lives", img}, "starting with a letter"},
      {"pytorch", {"--name=-x", img}, "invalid --name"},
      {"pytorch",
       {"--name=" + std::string(54, 'a'), img, "--workers=12"},
       "-worker-10\" would have 64 characters"},
      {"mpi", {"--name=" + std::string(49, 'a'), img}, "-launcher-xxxxx\" would have 64 characters"},
      {"pytorch", {"--name=" + std::string(52, 'a'), img, "--tensorboard"}, "-tensorboard\" would have 64"},
      {"volcano", {"--name=" + std::string(54, 'a'), img, "--task=trainer:10"}, "-trainer-9\" would have 64"},
      {"pytorch", {"--name=a"}, "--image (or --worker-image) must be set"},
      {"pytorch", {"--name=a", img, "--image-pull-policy=always"}, "invalid --image-pull-policy \"always\""},
      {"pytorch", {"--name=a", img, "--device=fpga=1"}, "use VENDOR/RESOURCE=COUNT"},
      {"pytorch", {"--name=a", img, "--device=amd.com/gpu"}, "invalid --device \"amd.com/gpu\""},
      {"pytorch", {"--name=a", img, "--device=nvidia.com/gpu=1"}, "give GPUs with --gpus"},
      {"mpi", {"--name=a", img, "--device=amd.com/gpu=x"}, "\"x\" is not a quantity"},
      {"mpi",
       {"--name=a", img, "--device=amd.com/gpu=1.5"},
       "the count of amd.com/gpu must be a whole number"},
      {"volcano",
       {"--name=a", img, "--device=amd.com/gpu=1", "--device=amd.com/gpu=2"},
       "names \"amd.com/gpu\" twice"},
      {"mpi", {"--name=a"}, "--image must be set"},
      {"mpi",
       {"--name=a", img, "--worker-image=w"},
       "--worker-image is only for submit pytorch and submit tf"},
      {"pytorch", {"--name=a", img, "--worker-image=w", "--operator=none"}, "every pod runs one template"},
      {"pytorch", {"--name=a", img, "--workers=0"}, "--workers must be at least 1"},
      {"mpi", {"--name=a", img, "--gpus=-1"}, "--gpus must not be negative"},
      {"pytorch", {"--name=a", img, "--retry=-2"}, "--retry must not be negative"},
      {"pytorch", {"--name=a", img, "--cpu=lots"}, "invalid --cpu \"lots\": use a Kubernetes quantity"},
      {"pytorch", {"--name=a", img, "--memory=8GB"}, "invalid --memory \"8GB\""},
      {"pytorch", {"--name=a", img, "--share-memory=-1Gi"}, "invalid --share-memory"},
      {"pytorch", {"--name=a", img, "--shm-size=big"}, "invalid --share-memory \"big\""},
      {"pytorch", {"--name=a", img, "--env=NOVALUE"}, "invalid --env \"NOVALUE\": use KEY=VALUE"},
      {"pytorch", {"--name=a", img, "-e", "=v"}, "invalid --env \"=v\""},
      {"pytorch", {"--name=a", img, "--data=pvc"}, "invalid --data \"pvc\": use PVC_NAME:/mount/path"},
      {"pytorch", {"--name=a", img, "--data=pvc:relative"}, "the mount path must be absolute"},
      {"pytorch", {"--name=a", img, "--data=Bad:/x"}, "is not a valid PVC name"},
      {"pytorch", {"--name=a", img, "--data=p:/x", "--data=p:/y"}, "names PVC \"p\" twice"},
      {"pytorch", {"--name=a", img, "--data=p:/x", "--data=q:/x"}, "mounts two volumes at \"/x\""},
      {"pytorch", {"--name=a", img, "--data-dir=rel:/x"}, "invalid --data-dir \"rel:/x\""},
      {"pytorch", {"--name=a", img, "--selector=novalue"}, "invalid --selector \"novalue\""},
      {"pytorch", {"--name=a", img, "--selector=k=bad value"}, "is not a valid label value"},
      {"pytorch", {"--name=a", img, "--label=bad key=v"}, "invalid --label \"bad key=v\""},
      // trainctl's own labels: list, get and delete find the job's objects by them.
      {"pytorch",
       {"--name=a", img, "--label=release=other"},
       "invalid --label \"release=other\": trainctl sets the label \"release=a\" on the job and its objects"},
      {"mpi",
       {"--name=a", img, "--label=app.kubernetes.io/managed-by=x"},
       "invalid --label \"app.kubernetes.io/managed-by=x\": trainctl sets the label "
       "\"app.kubernetes.io/managed-by=trainctl\""},
      {"pytorch", {"--name=a", img, "--label=app=web"}, "trainctl sets the label \"app=pytorchjob\""},
      {"pytorch",
       {"--name=a", img, "--operator=none", "--label=trainctl.io/operator=x"},
       "trainctl sets the label \"trainctl.io/operator=none\""},
      {"volcano",
       {"--name=a", img, "--task=ps:1", "--task-label=ps:release=b"},
       "invalid --task-label \"release=b\": trainctl sets the label \"release=a\""},
      {"pytorch", {"--name=a", img, "--toleration=key:Sometimes"}, "invalid --toleration \"key:Sometimes\""},
      {"pytorch", {"--name=a", img, "--toleration=:NoSchedule"}, "invalid --toleration"},
      {"pytorch", {"--name=a", img, "--sync-source=https://x/y.git"}, "--sync-source needs --sync-mode"},
      {"pytorch", {"--name=a", img, "--sync-mode=git"}, "--sync-mode needs --sync-source"},
      {"pytorch", {"--name=a", img, "--sync-mode=hdfs", "--sync-source=x"}, "invalid --sync-mode \"hdfs\""},
      {"pytorch", {"--name=a", img, "--sync-image=x"}, "--sync-image needs --sync-mode"},
      {"pytorch", {"--name=a", img, "--gputopology"}, "--gputopology is only for submit mpi"},
      {"pytorch", {"--name=a", img, "--slots-per-worker=2"}, "--slots-per-worker is only for submit mpi"},
      {"pytorch", {"--name=a", img, "--launcher-cpu=1"}, "--launcher-cpu is only for submit mpi"},
      // Every command refuses the flags only other commands take, naming them (SubmitKind::flags).
      {"pytorch", {"--name=a", img, "--ps=2"}, "--ps is only for submit tf"},
      {"volcano", {"--name=a", img, "--runtime=torch-distributed"}, "--runtime is only for submit trainjob"},
      {"trainjob", {"--name=a", "--runtime=r", "--task-cpu=ps:1"}, "--task-cpu is only for submit volcano"},
      {"tf",
       {"--name=a", img, "--min-resources=cpu=1", "--gputopology"},
       "--gputopology is only for submit mpi"},
      {"mpi", {"--name=a", img, "--nproc-per-node=2"}, "--nproc-per-node is only for submit pytorch"},
      {"mpi", {"--name=a", img, "--operator=none"}, "--operator is only for submit pytorch"},
      {"trainjob", {"--name=a", "--runtime=r", "--api=none"}, "--api is only for submit pytorch"},
      {"trainjob", {"--name=a", "--runtime=r", "--master-port=1"}, "--master-port is only for submit pytorch"},
      {"pytorch", {"--name=a", img, "--operator=kubeflow"}, "invalid --operator \"kubeflow\""},
      {"pytorch", {"--name=a", img, "--operator=none", "--gang"}, "need the training-operator"},
      {"pytorch", {"--name=a", img, "--nproc-per-node=many"}, "invalid --nproc-per-node \"many\""},
      {"pytorch", {"--name=a", img, "--shell=zsh"}, "invalid --shell \"zsh\": use sh or bash"},
      {"pytorch", {"--name=a", img, "--working-dir=code"}, "invalid --working-dir \"code\""},
      {"pytorch", {"--name=a", img, "--clean-task-policy=Some"}, "invalid --clean-task-policy \"Some\""},
      {"pytorch", {"--name=a", img, "--running-timeout=soon"}, "invalid --running-timeout \"soon\""},
      {"pytorch", {"--name=a", img, "--ttl-after-finished=1x"}, "invalid --ttl-after-finished \"1x\""},
      {"mpi", {"--name=a", img, "--schedule-timeout=-5s"}, "invalid --schedule-timeout"},
      {"pytorch", {"--name=a", img, "--tensorboard", "--logdir=logs"}, "invalid --logdir \"logs\""},
      {"pytorch", {"--name=a", img, "--priority=High Prio"}, "invalid --priority"},
      {"pytorch", {"--name=a", img, "--image-pull-secret=Bad!"}, "invalid --image-pull-secret"},
      {"pytorch", {"--name=a", img, "--dry-run", "--wait"}, "--wait cannot be used with --dry-run"},
      {"pytorch", {"--name=a", img, "--wait=forever"}, "invalid --wait=forever"},
      {"pytorch", {"--name=a", img, "--dry-run", "-o", "xml"}, "invalid --output \"xml\""},
      {"pytorch", {"--name=a", img, "--timeout=later"}, "invalid --timeout \"later\""},
      {"mpi", {"--name=a", img, "--min-resources=cpu=much"}, "invalid --min-resources cpu"},
      {"volcano", {"--name=a", "--task=ps:2"}, "task \"ps\" has no image"},
      {"volcano",
       {"--name=a", img, "--task=ps"},
       "invalid --task \"ps\": use NAME:REPLICAS[:IMAGE[:COMMAND]]"},
      {"volcano", {"--name=a", img, "--task=ps:0"}, "REPLICAS must be at least 1"},
      {"volcano", {"--name=a", img, "--task=PS:1"}, "the task name \"PS\""},
      {"volcano", {"--name=a", img, "--task=ps:1", "--task=ps:2"}, "task \"ps\" is given twice"},
      {"volcano",
       {"--name=a", img, "--task=ps:1", "--min-available=3"},
       "--min-available 3 is more than the 1 pods"},
  };
  for (const auto& c : cases) {
    std::string joined;
    for (const auto& a : c.args) joined += " " + a;
    INFO("trainctl submit " << c.kind << joined);
    std::string msg = usage_error(c);
    INFO("message: " << msg);
    CHECK(msg.find(c.message) != std::string::npos);
  }
}

TEST_CASE("--name is required by the parser", "[validation]") {
  CHECK_THROWS_AS(parse_submit("pytorch", {"--image=x", "cmd"}), CLI::RequiredError);
}

TEST_CASE("names at the length limit are accepted", "[validation]") {
  // NAME-worker-10 is 63 characters with a 53-character name and 12 workers (indices 0..10).
  auto o = parse_submit("pytorch", {"--name=" + std::string(53, 'a'), "--image=x", "--workers=12", "cmd"});
  CHECK_NOTHROW(submit::make_plan(o, "default", {}));
  // MPI: NAME-launcher-xxxxx is 63 characters with a 48-character name.
  auto m = parse_submit("mpi", {"--name=" + std::string(48, 'a'), "--image=x", "cmd"});
  CHECK_NOTHROW(submit::make_plan(m, "default", {}));
}
