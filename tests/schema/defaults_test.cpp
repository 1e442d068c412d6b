// Defaults of the CRD schemas, filled in as the API server does after pruning.
#include <catch2/catch.hpp>

#include "fixtures.h"
#include "manifests.h"

using namespace trainctl::schema;
using namespace trainctl::schema::test;

TEST_CASE("MPIJob v2beta1 defaults from the CRD", "[schema][defaults]") {
  auto obj = yaml(R"(
apiVersion: kubeflow.org/v2beta1
kind: MPIJob
metadata: {name: pi}
spec:
  runPolicy: {cleanPodPolicy: Running}
  mpiReplicaSpecs:
    Worker:
      replicas: 2
      template:
        spec:
          containers:
          - name: worker
            image: mpioperator/mpi-pi:openmpi
            ports: [{containerPort: 2222}]
)");
  auto d = real_schemas().apply_defaults(obj);
  // Values read from the `default:` lines of kubeflow.org_mpijobs.yaml.
  CHECK(d["spec"]["slotsPerWorker"] == 1);
  CHECK(d["spec"]["mpiImplementation"] == "OpenMPI");
  CHECK(d["spec"]["launcherCreationPolicy"] == "AtStartup");
  CHECK(d["spec"]["sshAuthMountPath"] == "/root/.ssh");
  CHECK(d["spec"]["runLauncherAsWorker"] == false);
  CHECK(d["spec"]["runPolicy"]["suspend"] == false);
  CHECK(d["spec"]["runPolicy"]["cleanPodPolicy"] == "Running");  // given values stay
  auto& port = d["spec"]["mpiReplicaSpecs"]["Worker"]["template"]["spec"]["containers"][0]["ports"][0];
  CHECK(port["protocol"] == "TCP");
  CHECK(port["containerPort"] == 2222);
  // Objects that are absent are not created to hold defaults.
  CHECK_FALSE(d["spec"]["runPolicy"].contains("schedulingPolicy"));
  CHECK_FALSE(d["metadata"].contains("namespace"));
  CHECK(real_schemas().validate(d, Mode::Strict).ok());
}

TEST_CASE("Volcano Job defaults and a null replaced by its default", "[schema][defaults]") {
  auto obj = yaml(kVolcanoJob);
  obj["spec"].erase("maxRetry");
  obj["spec"]["queue"] = nullptr;
  auto d = real_schemas().apply_defaults(obj);
  CHECK(d["spec"]["maxRetry"] == 3);
  CHECK(d["spec"]["queue"] == "default");
  CHECK(d["spec"]["minAvailable"] == 3);
}

TEST_CASE("built-in kinds are not defaulted from their OpenAPI documents", "[schema][defaults]") {
  auto obj = yaml(kNodePortService);
  CHECK(real_schemas().apply_defaults(obj) == obj);
  auto unknown = yaml("{apiVersion: example.com/v1, kind: Gadget}");
  CHECK(real_schemas().apply_defaults(unknown) == unknown);
}
