// Validation of custom resources against the real CRDs.
#include <catch2/catch.hpp>

#include "fixtures.h"
#include "manifests.h"

using namespace trainctl::schema;
using namespace trainctl::schema::test;

TEST_CASE("hand-written PyTorchJob, MPIJob and Volcano Job pass strict validation", "[schema][crd]") {
  for (const char* text : {kPyTorchJob, kMpiJob, kVolcanoJob}) {
    auto obj = yaml(text);
    auto result = real_schemas().validate(obj, Mode::Strict);
    INFO(obj["kind"].get<std::string>() << "\n" << result.to_string());
    CHECK(result.schema_found);
    CHECK(result.ok());
    CHECK(result.unknown_fields.empty());
    // Nothing of a valid manifest is pruned.
    CHECK(real_schemas().prune(obj) == obj);
  }
}

TEST_CASE("a string where the CRD wants an integer is FieldValueTypeInvalid", "[schema][crd]") {
  auto obj = yaml(kPyTorchJob);
  obj["spec"]["pytorchReplicaSpecs"]["Worker"]["replicas"] = "two";
  auto result = real_schemas().validate(obj, Mode::Strict);
  REQUIRE(result.causes.size() == 1);
  const auto& c = result.causes[0];
  CHECK(c.field == "spec.pytorchReplicaSpecs.Worker.replicas");
  CHECK(c.reason == "FieldValueTypeInvalid");
  CHECK(c.message ==
        "Invalid value: \"string\": spec.pytorchReplicaSpecs.Worker.replicas in body must be of "
        "type integer: \"string\"");
  CHECK(result.invalid_message("PyTorchJob.kubeflow.org", "mnist-ddp") ==
        "PyTorchJob.kubeflow.org \"mnist-ddp\" is invalid: spec.pytorchReplicaSpecs.Worker."
        "replicas: Invalid value: \"string\": spec.pytorchReplicaSpecs.Worker.replicas in body "
        "must be of type integer: \"string\"");
  // 1.5 is not integral; 2.0 is.
  obj["spec"]["pytorchReplicaSpecs"]["Worker"]["replicas"] = 1.5;
  CHECK_FALSE(real_schemas().validate(obj).ok());
  obj["spec"]["pytorchReplicaSpecs"]["Worker"]["replicas"] = 2.0;
  CHECK(real_schemas().validate(obj).ok());
  // A boolean where a string is declared (restartPolicy: string).
  obj["spec"]["pytorchReplicaSpecs"]["Worker"]["restartPolicy"] = true;
  auto bad = real_schemas().validate(obj);
  REQUIRE(cause_at(bad, "spec.pytorchReplicaSpecs.Worker.restartPolicy") != nullptr);
  CHECK(cause_at(bad, "spec.pytorchReplicaSpecs.Worker.restartPolicy")->message ==
        "Invalid value: \"boolean\": spec.pytorchReplicaSpecs.Worker.restartPolicy in body must "
        "be of type string: \"boolean\"");
}

TEST_CASE("enum violations are FieldValueNotSupported listing the schema's values", "[schema][crd]") {
  auto mpi = yaml(kMpiJob);
  mpi["spec"]["mpiImplementation"] = "Bogus";
  auto result = real_schemas().validate(mpi);
  REQUIRE(result.causes.size() == 1);
  CHECK(result.causes[0].field == "spec.mpiImplementation");
  CHECK(result.causes[0].reason == "FieldValueNotSupported");
  CHECK(result.causes[0].message ==
        "Unsupported value: \"Bogus\": supported values: \"OpenMPI\", \"Intel\", \"MPICH\"");

  auto vc = yaml(kVolcanoJob);
  vc["spec"]["tasks"][1]["topologyPolicy"] = "fastest";
  vc["spec"]["policies"][0]["event"] = "PodGone";
  auto vres = real_schemas().validate(vc);
  CHECK(vres.causes.size() == 2);
  REQUIRE(cause_at(vres, "spec.tasks[1].topologyPolicy") != nullptr);
  CHECK(cause_at(vres, "spec.tasks[1].topologyPolicy")->message ==
        "Unsupported value: \"fastest\": supported values: \"none\", \"best-effort\", "
        "\"restricted\", \"single-numa-node\"");
  REQUIRE(cause_at(vres, "spec.policies[0].event") != nullptr);
  CHECK(cause_at(vres, "spec.policies[0].event")->reason == "FieldValueNotSupported");

  // training-operator v1.9's PyTorchJob declares runPolicy.cleanPodPolicy as a plain string
  // (no enum), so the API server accepts any value there.
  auto pt = yaml(kPyTorchJob);
  pt["spec"]["runPolicy"]["cleanPodPolicy"] = "Bogus";
  CHECK(real_schemas().validate(pt).ok());
}

TEST_CASE("missing required fields are FieldValueRequired", "[schema][crd]") {
  auto pt = yaml(kPyTorchJob);
  pt["spec"]["pytorchReplicaSpecs"]["Master"]["template"]["spec"]["containers"][0].erase("name");
  auto result = real_schemas().validate(pt);
  REQUIRE(result.causes.size() == 1);
  CHECK(result.causes[0].field == "spec.pytorchReplicaSpecs.Master.template.spec.containers[0].name");
  CHECK(result.causes[0].reason == "FieldValueRequired");
  CHECK(result.causes[0].message == "Required value");

  // The CRD's container schema requires only name: no image is fine for the API server.
  auto no_image = yaml(kPyTorchJob);
  no_image["spec"]["pytorchReplicaSpecs"]["Worker"]["template"]["spec"]["containers"][0].erase("image");
  CHECK(real_schemas().validate(no_image).ok());

  auto mpi = yaml(kMpiJob);
  mpi["spec"].erase("mpiReplicaSpecs");
  auto mres = real_schemas().validate(mpi);
  REQUIRE(mres.causes.size() == 1);
  CHECK(mres.causes[0].field == "spec.mpiReplicaSpecs");
  CHECK(mres.causes[0].reason == "FieldValueRequired");

  // A pod template without containers (PodSpec requires them).
  auto vc = yaml(kVolcanoJob);
  vc["spec"]["tasks"][0]["template"]["spec"].erase("containers");
  CHECK(cause_at(real_schemas().validate(vc), "spec.tasks[0].template.spec.containers") != nullptr);
}

TEST_CASE("minimum, minItems and pattern from the Volcano CRD", "[schema][crd]") {
  auto vc = yaml(kVolcanoJob);
  vc["spec"]["minAvailable"] = -1;
  vc["spec"]["tasks"][0]["name"] = "Master";
  vc["spec"]["queue"] = "Team_A";
  auto result = real_schemas().validate(vc);
  INFO(result.to_string());
  CHECK(result.causes.size() == 3);
  REQUIRE(cause_at(result, "spec.minAvailable") != nullptr);
  CHECK(cause_at(result, "spec.minAvailable")->message ==
        "Invalid value: -1: spec.minAvailable in body should be greater than or equal to 0");
  REQUIRE(cause_at(result, "spec.tasks[0].name") != nullptr);
  CHECK(cause_at(result, "spec.tasks[0].name")->message ==
        "Invalid value: \"Master\": spec.tasks[0].name in body should match "
        "'^[a-z0-9]([-a-z0-9]*[a-z0-9])?$'");
  CHECK(cause_at(result, "spec.queue") != nullptr);

  auto empty = yaml(kVolcanoJob);
  empty["spec"]["tasks"] = nlohmann::json::array();
  auto eres = real_schemas().validate(empty);
  REQUIRE(cause_at(eres, "spec.tasks") != nullptr);
  CHECK(cause_at(eres, "spec.tasks")->message ==
        "Invalid value: []: spec.tasks in body should have at least 1 items");

  auto long_name = yaml(kVolcanoJob);
  long_name["spec"]["schedulerName"] = std::string(64, 'a');  // maxLength: 63
  auto lres = real_schemas().validate(long_name);
  REQUIRE(cause_at(lres, "spec.schedulerName") != nullptr);
  CHECK(cause_at(lres, "spec.schedulerName")->reason == "FieldValueTooLong");
}

TEST_CASE("int-or-string quantities accept numbers and quantity strings only", "[schema][crd]") {
  auto pt = yaml(kPyTorchJob);
  auto& limits =
      pt["spec"]["pytorchReplicaSpecs"]["Master"]["template"]["spec"]["containers"][0]["resources"]["limits"];
  limits["memory"] = "2Gi";
  limits["cpu"] = 1;
  limits["ephemeral-storage"] = "1.5e9";
  limits["nvidia.com/gpu"] = "1";
  CHECK(real_schemas().validate(pt).ok());

  limits["memory"] = "2 GiB";
  limits["cpu"] = true;
  auto result = real_schemas().validate(pt);
  INFO(result.to_string());
  const std::string base = "spec.pytorchReplicaSpecs.Master.template.spec.containers[0].resources.limits.";
  REQUIRE(cause_at(result, base + "memory") != nullptr);
  CHECK(cause_at(result, base + "memory")
            ->message.rfind("Invalid value: \"2 GiB\": " + base + "memory in body should match '^(\\+|-)?",
                            0) == 0);
  REQUIRE(cause_at(result, base + "cpu") != nullptr);
  CHECK(cause_at(result, base + "cpu")->reason == "FieldValueTypeInvalid");
}

TEST_CASE("null in a field that is not nullable is dropped, not an error", "[schema][crd]") {
  auto pt = yaml(kPyTorchJob);
  pt["spec"]["runPolicy"]["backoffLimit"] = nullptr;
  pt["metadata"]["creationTimestamp"] = nullptr;  // what kubectl prints for new objects
  CHECK(real_schemas().validate(pt).ok());
  auto pruned = real_schemas().prune(pt);
  CHECK_FALSE(pruned["spec"]["runPolicy"].contains("backoffLimit"));
  CHECK_FALSE(pruned["metadata"].contains("creationTimestamp"));
  CHECK(pruned["spec"]["runPolicy"]["ttlSecondsAfterFinished"] == 600);
}

TEST_CASE("date-time fields of a CRD must hold RFC 3339 times", "[schema][crd]") {
  auto pt = yaml(kPyTorchJob);
  pt["status"] = {{"startTime", "2024-05-01T10:00:00Z"}, {"completionTime", "2024-05-01T11:30:00.250+02:00"}};
  CHECK(real_schemas().validate(pt).ok());
  pt["status"]["startTime"] = "yesterday";
  auto result = real_schemas().validate(pt);
  REQUIRE(result.causes.size() == 1);
  CHECK(result.causes[0].field == "status.startTime");
  CHECK(result.causes[0].reason == "FieldValueTypeInvalid");
  CHECK(result.causes[0].message ==
        "Invalid value: \"yesterday\": status.startTime in body must be of type date-time: "
        "\"yesterday\"");
}
