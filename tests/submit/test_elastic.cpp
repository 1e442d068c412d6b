// Elastic PyTorchJobs: --min-workers / --max-workers render spec.elasticPolicy and Workers only,
// as training-operator v1.9.0 accepts them (lib/submit/plan_elastic.cpp, docs/operators.md §1.11).
#include <catch2/catch.hpp>

#include "core/errors.h"
#include "core/file.h"
#include "submit/kind_part.h"
#include "submit/kinds/torchrun.h"
#include "submit/plan.h"
#include "submit/server_facts.h"
#include "submit_testing.h"
#include "support/paths.h"
#include "yaml/read.h"

using namespace trainctl;
using namespace trainctl::testing;
using nlohmann::json;

namespace {

const std::string kCommand = "torchrun train.py";

std::string refusal(const std::string& kind, const std::vector<std::string>& args) {
  auto o = parse_submit(kind, args);
  try {
    submit::make_plan(o, "default", {});
  } catch (const UsageError& e) {
    CHECK(e.code() == ExitCode::Usage);
    const std::string msg = e.what();
    CHECK(msg.find('\n') == std::string::npos);
    return msg;
  }
  FAIL("no UsageError");
  return "";
}

}  // namespace

TEST_CASE("elastic flags parse into the options", "[elastic][flags]") {
  const auto options = parse_submit(
      "pytorch", {"--name=e", kImage, "--min-workers", "2", "--max-workers=4", "--max-restarts=3",
                  "--rdzv-backend=c10d", "--rdzv-port", "29400", "--workers=2", kCommand});
  const auto& o = submit::kind_part<submit::ElasticOptions>(options);
  CHECK(o.min_workers == 2);
  CHECK(o.max_workers == 4);
  CHECK(o.max_restarts == 3);
  CHECK(o.rdzv_backend == "c10d");
  CHECK(o.rdzv_port == 29400);
  CHECK(options.command_args == std::vector<std::string>{kCommand});
  const auto plain_options = parse_submit("pytorch", {"--name=e", kImage, "python x"});
  const auto& plain = submit::kind_part<submit::ElasticOptions>(plain_options);
  CHECK_FALSE(plain.min_workers);
  CHECK_FALSE(plain.max_workers);
  CHECK_FALSE(plain.max_restarts);
  CHECK(plain.rdzv_backend.empty());
  CHECK_FALSE(plain.rdzv_port);
}

TEST_CASE("elastic refusals: one line each, saying what to change", "[elastic][validation]") {
  struct Bad {
    std::string kind;
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Bad> cases = {
      {"pytorch", {"--operator=none", "--min-workers=1"}, "--min-workers needs the training-operator"},
      {"mpi", {"--max-workers=2"}, "--max-workers is only for submit pytorch"},
      {"volcano", {"--min-workers=1"}, "--min-workers is only for submit pytorch"},
      {"volcano", {"--rdzv-port=1"}, "--rdzv-port is only for submit pytorch"},
      {"trainjob", {"--runtime=r", "--max-restarts=1"}, "--max-restarts is only for submit pytorch"},
      {"pytorch",
       {"--api=trainer", "--min-workers=1"},
       "--min-workers needs the training-operator (an elastic PyTorchJob): a TrainJob runs trainer.numNodes nodes"},
      {"pytorch",
       {"--max-restarts=2"},
       "--max-restarts is for an elastic job: give --min-workers and --max-workers"},
      {"pytorch", {"--rdzv-backend=c10d"}, "--rdzv-backend is for an elastic job"},
      {"pytorch", {"--rdzv-port=29400"}, "--rdzv-port is for an elastic job"},
      {"pytorch", {"--min-workers=0"}, "--min-workers must be at least 1"},
      {"pytorch", {"--max-workers=0"}, "--max-workers must be at least 1"},
      {"pytorch",
       {"--min-workers=3", "--max-workers=2", "--workers=2"},
       "--min-workers 3 is more than --max-workers 2: give --min-workers at most --max-workers"},
      {"pytorch",
       {"--min-workers=2", "--max-workers=4"},
       "--workers 1 is outside --min-workers 2 to --max-workers 4: give --workers"},
      {"pytorch", {"--min-workers=2", "--max-workers=4", "--workers=5"}, "--workers 5 is outside"},
      // pytorch_defaults.go setElasticPolicy: --max-workers alone is also the minimum.
      {"pytorch",
       {"--max-workers=3", "--workers=2"},
       "--workers 2 is outside --min-workers 3 to --max-workers 3"},
      {"pytorch", {"--min-workers=1", "--max-restarts=-1"}, "--max-restarts must not be negative"},
      {"pytorch", {"--min-workers=1", "--rdzv-backend=etcd"}, "--rdzv-backend etcd needs an etcd server"},
      {"pytorch",
       {"--min-workers=1", "--rdzv-backend=etcd-v2"},
       "--rdzv-backend etcd-v2 needs an etcd server"},
      {"pytorch",
       {"--min-workers=1", "--rdzv-backend=static"},
       "invalid --rdzv-backend \"static\": use c10d"},
      {"pytorch", {"--min-workers=1", "--rdzv-port=0"}, "--rdzv-port must be between 1 and 65535"},
      {"pytorch", {"--min-workers=1", "--rdzv-port=65536"}, "--rdzv-port must be between 1 and 65535"},
      {"pytorch",
       {"--min-workers=1", "--image=a", "--worker-image=b"},
       "--image and --worker-image differ, but an elastic job runs Worker pods only"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args = {"--name=e"};
    if (c.args.back().rfind("--worker-image", 0) != 0) args.push_back(kImage);
    args.insert(args.end(), c.args.begin(), c.args.end());
    args.push_back(c.kind == "mpi" ? "mpirun " + kCommand : kCommand);
    INFO(c.kind << " " << c.args.front());
    CHECK_THAT(refusal(c.kind, args), Catch::Contains(c.message));
  }
}

TEST_CASE("an elastic job's command must start torchrun", "[elastic][validation]") {
  for (const std::string cmd :
       {"python train.py", "sh -c 'torchrun x'", "python -m torch.distributed.launch x",
        "pythonx -m torch.distributed.run x"}) {
    INFO(cmd);
    CHECK_THAT(refusal("pytorch", {"--name=e", kImage, "--min-workers=1", cmd}),
               Catch::Contains("an elastic job's command must start torchrun") &&
                   Catch::Contains("\"torchrun train.py\""));
  }
  for (const std::string cmd :
       {"torchrun train.py", "/opt/conda/bin/torchrun --nproc-per-node=2 train.py",
        "NCCL_DEBUG=INFO torchrun x", "python -m torch.distributed.run x",
        "python3.11 -m torch.distributed.run x", "/usr/bin/python3 -mtorch.distributed.run x"}) {
    INFO(cmd);
    CHECK_NOTHROW(submit_objects("pytorch", {"--name=e", kImage, "--min-workers=1", cmd}));
  }
  // Without a command, the usual refusal.
  CHECK_THAT(refusal("pytorch", {"--name=e", kImage, "--min-workers=1"}),
             Catch::Contains("needs the command"));
}

// pkg/webhooks/pytorch/pytorchjob_webhook.go validateSpec (a Worker spec is required) and
// pkg/controller.v1/pytorch/elastic.go (PET_RDZV_ENDPOINT NAME-worker-0, PET_NNODES min:max).
TEST_CASE("elastic: spec.elasticPolicy and Workers only, the initial --workers of them",
          "[elastic][operators]") {
  auto objs = submit_objects(
      "pytorch", {"--name=e", kImage, "--min-workers=2", "--max-workers=4", "--workers=3", kCommand});
  const json& spec = objs[0]["spec"];
  CHECK(spec["elasticPolicy"] ==
        json::parse(R"({"minReplicas": 2, "maxReplicas": 4, "rdzvBackend": "c10d", "rdzvPort": 23456})"));
  CHECK_FALSE(spec["pytorchReplicaSpecs"].contains("Master"));
  CHECK(spec["pytorchReplicaSpecs"]["Worker"]["replicas"] == 3);
  CHECK(spec["pytorchReplicaSpecs"]["Worker"]["restartPolicy"] == "OnFailure");
  CHECK(main_container(objs[0], "Worker")["name"] == "pytorch");  // the operator's default container

  // One bound given: the other is the same (pytorch_defaults.go setElasticPolicy), rendered.
  auto fixed = submit_objects("pytorch", {"--name=e", kImage, "--max-workers=2", "--workers=2",
                                          "--max-restarts=0", "--rdzv-port=29400", kCommand});
  CHECK(
      fixed[0]["spec"]["elasticPolicy"] ==
      json::parse(
          R"({"minReplicas": 2, "maxReplicas": 2, "rdzvBackend": "c10d", "rdzvPort": 29400, "maxRestarts": 0})"));
  // --worker-image alone is every pod's image; equal to --image it is accepted.
  auto img = submit_objects("pytorch", {"--name=e", "--worker-image=w:1", "--min-workers=1", kCommand});
  CHECK(main_container(img[0], "Worker")["image"] == "w:1");
  CHECK_NOTHROW(submit_objects(
      "pytorch", {"--name=e", "--image=w:1", "--worker-image=w:1", "--min-workers=1", kCommand}));
}

TEST_CASE("elastic: the gang defaults to --min-workers", "[elastic][operators]") {
  auto objs = submit_objects("pytorch", {"--name=e", kImage, "--min-workers=2", "--max-workers=4",
                                         "--workers=4", "--gang", kCommand});
  CHECK(objs[0]["spec"]["runPolicy"]["schedulingPolicy"]["minAvailable"] == 2);
  auto given = submit_objects("pytorch", {"--name=e", kImage, "--min-workers=2", "--max-workers=4",
                                          "--workers=4", "--gang", "--min-available=3", kCommand});
  CHECK(given[0]["spec"]["runPolicy"]["schedulingPolicy"]["minAvailable"] == 3);
}

TEST_CASE("elastic: TensorBoard follows worker-0, the chief without a Master", "[elastic][tensorboard]") {
  auto objs = submit_objects(
      "pytorch", {"--name=tb", kImage, "--min-workers=1", "--max-workers=2", "--tensorboard", kCommand});
  const json& match = object_of_kind(
      objs,
      "Deployment")["spec"]["template"]["spec"]["affinity"]["podAffinity"]
                   ["requiredDuringSchedulingIgnoredDuringExecution"][0]["labelSelector"]["matchLabels"];
  CHECK(match == json::parse(R"({"training.kubeflow.org/job-name": "tb",
                                 "training.kubeflow.org/replica-type": "worker",
                                 "training.kubeflow.org/replica-index": "0"})"));
}

TEST_CASE("elastic: the longest derived name is the last Worker up to --max-workers",
          "[elastic][validation]") {
  // NAME-worker-9 fits at 63 characters, NAME-worker-10 does not.
  const std::string name(54, 'a');
  CHECK_NOTHROW(
      submit_objects("pytorch", {"--name=" + name, kImage, "--min-workers=1", "--max-workers=10", kCommand}));
  CHECK_THAT(refusal("pytorch", {"--name=" + name, kImage, "--min-workers=1", "--max-workers=11", kCommand}),
             Catch::Contains("\"" + name + "-worker-10\" would have 64 characters"));
}

TEST_CASE("elastic: a PyTorchJob CRD without spec.elasticPolicy refuses the job", "[elastic][operators]") {
  json crd = yaml::parse(read_file(require_schema_dir() + "/crds/kubeflow.org_pytorchjobs.yaml"), "crd");
  CHECK(submit::crd_has_field(crd, "v1", "spec.elasticPolicy"));
  CHECK(submit::crd_has_field(crd, "v1", "spec.elasticPolicy.rdzvPort"));
  crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"].erase(
      "elasticPolicy");
  CHECK_FALSE(submit::crd_has_field(crd, "v1", "spec.elasticPolicy"));

  auto o = parse_submit("pytorch", {"--name=e", kImage, "--min-workers=1", kCommand});
  submit::Plan plan = submit::make_plan(o, "default", {});
  CHECK(plan.submit_kind->reads_crd(plan));
  submit::ServerFacts old;
  old.elastic_policy_field = false;
  CHECK_THROWS_MATCHES(
      submit::apply_server_facts(old, plan), UsageError,
      Catch::Message("the installed PyTorchJob CRD has no spec.elasticPolicy (training-operator "
                     "before v1.4): drop --min-workers and --max-workers, or upgrade the "
                     "training-operator"));
  // A job that is not elastic does not mind.
  auto plain = parse_submit("pytorch", {"--name=e", kImage, "python x"});
  submit::Plan plain_plan = submit::make_plan(plain, "default", {});
  CHECK(submit::apply_server_facts(old, plain_plan).empty());
}

TEST_CASE("elastic on an operator without spec.nprocPerNode: PET_NPROC_PER_NODE on the Workers",
          "[elastic][operators]") {
  auto o = parse_submit("pytorch", {"--name=e", kImage, "--min-workers=1", "--nproc-per-node=4", kCommand});
  submit::Plan plan = submit::make_plan(o, "default", {});
  submit::ServerFacts facts;
  facts.nproc_per_node_field = false;
  auto notes = submit::apply_server_facts(facts, plan);
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].find("--nnodes") == std::string::npos);  // elastic.go sets PET_NNODES there too
  auto objs = render_submit_plan(plan);
  require_valid(objs);
  CHECK(env_value(main_container(objs[0], "Worker"), "PET_NPROC_PER_NODE") == "4");
}
