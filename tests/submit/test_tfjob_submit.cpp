// submit tf: Arena's tfjob flags, the TFJob replicas they make, the operator's container name
// and port, each refusal as one line, and the golden manifests (validated against the real
// TFJob CRD).
#include <catch2/catch.hpp>

#include "core/errors.h"
#include "scripted_client.h"
#include "submit/create.h"
#include "submit/kind_part.h"
#include "submit/kinds/kinds.h"
#include "submit/kinds/tfjob.h"
#include "submit/submit_kind.h"
#include "submit_testing.h"

using namespace trainctl;
using namespace trainctl::testing;
using nlohmann::json;

namespace {

const std::string kTFImage = "--image=tensorflow/tensorflow:2.15.0";

json tf_job(const std::vector<std::string>& args) {
  auto objects = submit_objects("tf", args);
  return object_of_kind(objects, "TFJob");
}

std::string refusal(const std::vector<std::string>& args) {
  try {
    render_submit(parse_submit("tf", args));
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("golden: tf with defaults only", "[golden][tf]") {
  check_golden("tfjob_minimal", submit_objects("tf", {"--name=mnist", kTFImage, "python mnist.py"}));
}

TEST_CASE("golden: tf with PS, workers, chief and evaluator and their own flags", "[golden][tf]") {
  check_golden("tfjob_ps_workers_chief",
               submit_objects("tf", {"--name=tf-dist",
                                     kTFImage,
                                     "--worker-image=tensorflow/tensorflow:2.15.0-gpu",
                                     "--ps=2",
                                     "--ps-image=tensorflow/tensorflow:2.15.0",
                                     "--ps-cpu=4",
                                     "--ps-memory=8Gi",
                                     "--ps-port=2223",
                                     "--ps-selector=node-role=cpu",
                                     "--workers=3",
                                     "--gpus=1",
                                     "--worker-cpu=8",
                                     "--worker-memory=32Gi",
                                     "--worker-selector=accelerator=v100",
                                     "--chief",
                                     "--chief-cpu=2",
                                     "--chief-memory=4Gi",
                                     "--chief-port=2221",
                                     "--evaluator",
                                     "--evaluator-memory=2Gi",
                                     "--selector=pool=training",
                                     "--data=training-data:/data",
                                     "--success-policy=AllWorkers",
                                     "--running-timeout=2h",
                                     "--ttl-after-finished=30m",
                                     "--clean-task-policy=All",
                                     "--gang",
                                     "python train.py --epochs=3"}));
}

TEST_CASE("tf: replica types, the operator's container name and port", "[tf]") {
  json job =
      tf_job({"--name=tf-dist", kTFImage, "--ps=1", "--workers=2", "--chief", "--gpus=1", "python train.py"});
  CHECK(job.at("apiVersion") == "kubeflow.org/v1");
  const json& specs = job.at("spec").at("tfReplicaSpecs");
  CHECK(specs.size() == 3);
  CHECK(specs.at("PS").at("replicas") == 1);
  CHECK(specs.at("Worker").at("replicas") == 2);
  CHECK(specs.at("Chief").at("replicas") == 1);
  CHECK(specs.at("Worker").at("restartPolicy") == "OnFailure");  // Arena's chart, with a chief
  CHECK(specs.at("Chief").at("restartPolicy") == "Never");
  for (const auto* type : {"PS", "Worker", "Chief"}) {
    const json& c = main_container(job, type);
    INFO(type);
    CHECK(c.at("name") == "tensorflow");
    CHECK(c.at("ports") == json::parse(R"([{"name":"tfjob-port","containerPort":2222}])"));
    CHECK_FALSE(pod_spec(job, type).contains("restartPolicy"));
  }
  // --gpus: the workers and the chief; the parameter servers only with --ps-gpus.
  CHECK(main_container(job, "Worker").at("resources").at("limits").at("nvidia.com/gpu") == "1");
  CHECK(main_container(job, "Chief").at("resources").at("limits").at("nvidia.com/gpu") == "1");
  CHECK_FALSE(main_container(job, "PS").contains("resources"));
  CHECK(env_value(main_container(job, "PS"), "NVIDIA_VISIBLE_DEVICES") == "void");
  // Workers and chief request 3 GPUs in all; every pod is waited for.
  CHECK(job.at("metadata").at("annotations").at("requestGPUsOfJobOwner") == "3");
  CHECK_FALSE(job.at("spec").contains("successPolicy"));  // ChiefWorker: the operator's default
  CHECK(job.at("spec").at("runPolicy").at("cleanPodPolicy") == "Running");
  auto plan = submit::make_plan(parse_submit("tf", {"--name=tf-dist", kTFImage, "--ps=1", "--workers=2",
                                                    "--chief", "--evaluator", "c"}),
                                "default", {});
  CHECK(plan.expected_pods == 5);
  CHECK(plan.submit_kind->chief_pod_labels(plan)[1].value == "chief");
}

TEST_CASE("tf: without --ps and --chief only workers; worker 0 is the chief", "[tf]") {
  json job = tf_job({"--name=w", kTFImage, "--workers=2", "--ps-gpus=0", "c"});
  CHECK(job.at("spec").at("tfReplicaSpecs").size() == 1);
  CHECK(job.at("spec").at("tfReplicaSpecs").at("Worker").at("restartPolicy") == "Never");
  auto plan =
      submit::make_plan(parse_submit("tf", {"--name=w", kTFImage, "--workers=2", "c"}), "default", {});
  CHECK(plan.submit_kind->chief_pod_labels(plan).size() == 3);
  CHECK(plan.min_available == 2);
}

TEST_CASE("tf: --ps-gpus, images and per-type selectors", "[tf]") {
  json job = tf_job({"--name=img", "--image=a:1", "--worker-image=b:1", "--ps=1", "--ps-gpus=2", "--chief",
                     "--evaluator", "--selector=pool=x", "--chief-selector=pool=y", "c"});
  CHECK(main_container(job, "PS").at("image") == "a:1");
  CHECK(main_container(job, "Worker").at("image") == "b:1");
  CHECK(main_container(job, "Chief").at("image") == "b:1");
  CHECK(main_container(job, "Evaluator").at("image") == "b:1");
  CHECK(main_container(job, "PS").at("resources").at("limits").at("nvidia.com/gpu") == "2");
  CHECK(pod_spec(job, "Worker").at("nodeSelector") == json{{"pool", "x"}});
  CHECK(pod_spec(job, "Chief").at("nodeSelector") == json{{"pool", "y"}});
  CHECK(job.at("metadata").at("annotations").at("requestGPUsOfJobOwner") == "2");
}

TEST_CASE("tf: each refusal is one line", "[tf][flags]") {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--name=x", kTFImage, "--ps=-1", "c"}, "--ps must not be negative"},
      {{"--name=x", kTFImage, "--ps=1", "--ps-gpus=-1", "c"}, "--ps-gpus must not be negative"},
      {{"--name=x", kTFImage, "--ps-image=a", "c"}, "--ps-image and --ps-gpus need --ps"},
      {{"--name=x", kTFImage, "--ps-cpu=1", "c"},
       "--ps-port, --ps-cpu, --ps-memory and --ps-selector need --ps"},
      {{"--name=x", kTFImage, "--chief-memory=1Gi", "c"},
       "--chief-port, --chief-cpu, --chief-memory and --chief-selector need --chief"},
      {{"--name=x", kTFImage, "--evaluator-selector=a=b", "c"},
       "--evaluator-port, --evaluator-cpu, --evaluator-memory and --evaluator-selector need --evaluator"},
      {{"--name=x", kTFImage, "--worker-port=70000", "c"}, "--worker-port must be between 1 and 65535"},
      {{"--name=x", kTFImage, "--worker-cpu=lots", "c"},
       "invalid --worker-cpu \"lots\": use a Kubernetes quantity such as 500m, 2, 4Gi or 512Mi"},
      {{"--name=x", kTFImage, "--success-policy=Chief", "c"},
       "invalid --success-policy \"Chief\": use ChiefWorker or AllWorkers"},
      {{"--name=x", kTFImage, "--nproc-per-node=2", "c"},
       "--nproc-per-node is only for submit pytorch and submit trainjob"},
      {{"--name=x", kTFImage, "--gputopology", "c"}, "--gputopology is only for submit mpi"},
      {{"--name=x", "c"}, "--image (or --worker-image) must be set"},
      {{"--name=x", kTFImage},
       "submit tf needs the command to run, as its last argument, e.g. \"python train.py\""},
  };
  for (const auto& [args, message] : cases) {
    INFO(args.back());
    const std::string got = refusal(args);
    CHECK(got == message);
    CHECK(got.find('\n') == std::string::npos);
  }
  CHECK(refusal({"--name=" + std::string(50, 'a'), kTFImage, "--evaluator", "c"}).empty());  // 62 characters
  CHECK(refusal({"--name=" + std::string(52, 'a'), kTFImage, "--evaluator", "c"}) ==
        "--name \"" + std::string(52, 'a') + "\" is too long: the derived name \"" + std::string(52, 'a') +
            "-evaluator-0\" would have 64 characters (at most 63)");
}

TEST_CASE("tf: Arena's camelCase spellings and the tfjob alias's flags", "[tf][flags]") {
  auto o = parse_submit(
      "tf", {"--name=x", "--psImage=p", "--psPort=1", "--workerPort=2", "--chiefPort=3", "--workerCpu=1",
             "--workerMemory=1Gi", "--psCpu=2", "--psMemory=2Gi", "--ChiefCpu=3", "--ChiefMemory=3Gi",
             "--evaluatorCpu=4", "--evaluatorMemory=4Gi", "--workerImage=w", "c"});
  const auto& tf = submit::kind_part<submit::TFOptions>(o);  // the TFJob kind's own options
  CHECK(tf.ps_image == "p");
  CHECK(tf.ps_replica.port == 1);
  CHECK(tf.worker.port == 2);
  CHECK(tf.chief_replica.port == 3);
  CHECK(tf.worker.cpu == "1");
  CHECK(tf.ps_replica.memory == "2Gi");
  CHECK(tf.chief_replica.cpu == "3");
  CHECK(tf.evaluator_replica.memory == "4Gi");
  CHECK(o.worker_image == "w");
  CHECK(o.kind == &submit::kinds::tfjob());
  CHECK(o.command_args == std::vector<std::string>{"c"});
}

TEST_CASE("create: a missing TFJob CRD names the training-operator", "[tf][create]") {
  ScriptedClient client([](const kube::Request&, int) -> kube::Response {
    ScriptedClient::fail(404, "NotFound", "the server could not find the requested resource");
  });
  auto objs = render_submit(parse_submit("tf", {"--name=a", "--image=x", "cmd"}), "ns1");
  CHECK_THROWS_WITH(
      submit::create_all(client, submit::kinds::tfjob(), "ns1", objs),
      "TFJob (kubeflow.org/v1) is not installed on this cluster: install the training-operator");
  CHECK(client.requests().size() == 1);
}
