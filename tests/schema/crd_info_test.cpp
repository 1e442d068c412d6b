// CRD facts for kubesim's discovery, and load errors.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "core/errors.h"
#include "fixtures.h"
#include "support/paths.h"

using namespace trainctl::schema;
using namespace trainctl::schema::test;

namespace {

const CrdInfo& crd_named(const std::string& name) {
  for (const auto& crd : real_schemas().crds()) {
    if (crd.name == name) return crd;
  }
  FAIL("no CRD " << name);
  throw std::logic_error("unreachable");
}

void write(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

}  // namespace

TEST_CASE("CRD info of the fourteen CRDs matches their definitions", "[schema][crdinfo]") {
  // k8s-schemas/README.md: training-operator (PyTorchJob, TFJob), mpi-operator (MPIJob),
  // Volcano (Job, PodGroup, Queue), Kueue (ClusterQueue, LocalQueue, Workload, ResourceFlavor),
  // Kubeflow Trainer v2.3.0 (TrainJob, TrainingRuntime, ClusterTrainingRuntime), JobSet v0.12.0.
  REQUIRE(real_schemas().crds().size() == 14);

  const auto& tj = crd_named("trainjobs.trainer.kubeflow.org");
  CHECK(tj.kind == "TrainJob");
  CHECK(tj.group == "trainer.kubeflow.org");
  CHECK(tj.namespaced);
  REQUIRE(tj.versions.size() == 1);
  CHECK(tj.versions[0].name == "v1alpha1");
  CHECK(tj.versions[0].status_subresource);
  CHECK(crd_named("trainingruntimes.trainer.kubeflow.org").namespaced);
  CHECK_FALSE(crd_named("clustertrainingruntimes.trainer.kubeflow.org").namespaced);
  const auto& js = crd_named("jobsets.jobset.x-k8s.io");
  CHECK(js.kind == "JobSet");
  REQUIRE(js.storage_version() != nullptr);
  CHECK(js.storage_version()->name == "v1alpha2");

  const auto& tf = crd_named("tfjobs.kubeflow.org");
  CHECK(tf.kind == "TFJob");
  CHECK(tf.list_kind == "TFJobList");
  CHECK(tf.namespaced);
  REQUIRE(tf.versions.size() == 1);
  CHECK(tf.versions[0].name == "v1");
  CHECK(tf.versions[0].storage);

  // Kueue serves v1beta1 and v1beta2 and stores v1beta2.
  const auto& lq = crd_named("localqueues.kueue.x-k8s.io");
  CHECK(lq.kind == "LocalQueue");
  CHECK(lq.short_names == std::vector<std::string>{"queue", "queues", "lq"});
  CHECK(lq.namespaced);
  REQUIRE(lq.versions.size() == 2);
  CHECK(lq.versions[0].name == "v1beta1");
  CHECK(lq.versions[0].served);
  CHECK_FALSE(lq.versions[0].storage);
  REQUIRE(lq.storage_version() != nullptr);
  CHECK(lq.storage_version()->name == "v1beta2");
  const auto& cq = crd_named("clusterqueues.kueue.x-k8s.io");
  CHECK_FALSE(cq.namespaced);
  CHECK(cq.short_names == std::vector<std::string>{"cq"});
  CHECK_FALSE(crd_named("resourceflavors.kueue.x-k8s.io").namespaced);
  CHECK(crd_named("workloads.kueue.x-k8s.io").kind == "Workload");

  const auto& pt = crd_named("pytorchjobs.kubeflow.org");
  CHECK(pt.group == "kubeflow.org");
  CHECK(pt.kind == "PyTorchJob");
  CHECK(pt.list_kind == "PyTorchJobList");
  CHECK(pt.plural == "pytorchjobs");
  CHECK(pt.singular == "pytorchjob");
  CHECK(pt.short_names.empty());
  CHECK(pt.namespaced);
  REQUIRE(pt.versions.size() == 1);
  CHECK(pt.versions[0].name == "v1");
  CHECK(pt.versions[0].served);
  CHECK(pt.versions[0].storage);
  CHECK(pt.versions[0].status_subresource);
  CHECK(pt.versions[0].scale_subresource);

  const auto& mpi = crd_named("mpijobs.kubeflow.org");
  CHECK(mpi.kind == "MPIJob");
  CHECK(mpi.plural == "mpijobs");
  CHECK(mpi.namespaced);
  REQUIRE(mpi.storage_version() != nullptr);
  CHECK(mpi.storage_version()->name == "v2beta1");
  CHECK(mpi.storage_version()->status_subresource);

  const auto& vc = crd_named("jobs.batch.volcano.sh");
  CHECK(vc.group == "batch.volcano.sh");
  CHECK(vc.kind == "Job");
  CHECK(vc.short_names == std::vector<std::string>{"vcjob", "vj"});
  CHECK(vc.namespaced);
  CHECK(vc.versions.at(0).name == "v1alpha1");
  CHECK(vc.versions.at(0).status_subresource);

  const auto& pg = crd_named("podgroups.scheduling.volcano.sh");
  CHECK(pg.kind == "PodGroup");
  CHECK(pg.short_names == std::vector<std::string>{"pg", "podgroup-v1beta1"});
  CHECK(pg.namespaced);
  CHECK(pg.versions.at(0).name == "v1beta1");
  CHECK_FALSE(pg.versions.at(0).status_subresource);  // subresources: {} in the CRD

  const auto& q = crd_named("queues.scheduling.volcano.sh");
  CHECK(q.kind == "Queue");
  CHECK(q.plural == "queues");
  CHECK(q.short_names == std::vector<std::string>{"q", "queue-v1beta1"});
  CHECK_FALSE(q.namespaced);  // scope: Cluster
  CHECK(q.versions.at(0).status_subresource);

  CHECK(real_schemas().find_crd("batch.volcano.sh", "Job") == &vc);
  CHECK(real_schemas().find_crd("batch", "Job") == nullptr);
  REQUIRE(real_schemas().find("batch.volcano.sh/v1alpha1", "Job") != nullptr);
  CHECK(real_schemas().find("batch.volcano.sh/v1alpha1", "Job")->is_crd());
  CHECK(real_schemas().find("kubeflow.org/v2beta1", "PyTorchJob") == nullptr);
}

TEST_CASE("the Queue CRD's bounds and enum apply", "[schema][crdinfo]") {
  auto q = yaml(R"(
apiVersion: scheduling.volcano.sh/v1beta1
kind: Queue
metadata: {name: research}
spec:
  weight: 0
  reclaimable: true
  dequeueStrategy: lifo
  capability: {cpu: "64", memory: 256Gi, nvidia.com/gpu: 8}
)");
  auto result = real_schemas().validate(q);
  INFO(result.to_string());
  CHECK(result.causes.size() == 2);
  REQUIRE(cause_at(result, "spec.weight") != nullptr);
  CHECK(cause_at(result, "spec.weight")->message ==
        "Invalid value: 0: spec.weight in body should be greater than or equal to 1");
  REQUIRE(cause_at(result, "spec.dequeueStrategy") != nullptr);
  CHECK(cause_at(result, "spec.dequeueStrategy")->message ==
        "Unsupported value: \"lifo\": supported values: \"fifo\", \"traverse\"");
  q["spec"]["weight"] = 70000;  // maximum: 65535
  q["spec"]["dequeueStrategy"] = "fifo";
  auto high = real_schemas().validate(q);
  REQUIRE(high.causes.size() == 1);
  CHECK(high.causes[0].message ==
        "Invalid value: 70000: spec.weight in body should be less than or equal to 65535");
}

TEST_CASE("load errors name the file", "[schema][load]") {
  namespace fs = std::filesystem;
  const fs::path dir = trainctl::testing::make_temp_dir("schema-load");
  CHECK_THROWS_AS(SchemaSet::load_dir(dir.string()), trainctl::ConfigError);

  write(dir / "crds" / "broken.yaml", "spec: {group: [unclosed\n");
  try {
    SchemaSet::load_dir(dir.string());
    FAIL("no error for a malformed CRD file");
  } catch (const trainctl::ConfigError& e) {
    CHECK(std::string(e.what()).find((dir / "crds" / "broken.yaml").string()) != std::string::npos);
  }

  write(dir / "crds" / "broken.yaml",
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n"
        "metadata: {name: things.example.com}\nspec: {group: example.com}\n");
  try {
    SchemaSet::load_dir(dir.string());
    FAIL("no error for a CRD without names");
  } catch (const trainctl::ConfigError& e) {
    CHECK(std::string(e.what()).find("broken.yaml") != std::string::npos);
  }

  fs::remove(dir / "crds" / "broken.yaml");
  write(dir / "openapi" / "v1.30" / "api__v1_openapi.json", "{not json");
  auto set = SchemaSet::load_dir(dir.string());  // parsed on first use
  CHECK(set.crds().empty());
  CHECK(set.openapi_version() == "v1.30");
  try {
    set.find("v1", "Pod");
    FAIL("no error for a malformed OpenAPI document");
  } catch (const trainctl::ConfigError& e) {
    CHECK(std::string(e.what()).find("api__v1_openapi.json") != std::string::npos);
  }
  auto without = SchemaSet::load_dir(dir.string(), false);
  CHECK(without.find("v1", "Pod") == nullptr);
}
