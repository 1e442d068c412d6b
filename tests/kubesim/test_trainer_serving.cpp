// How kubesim serves Trainer v2 and JobSet: built in without any CRD directory, --operators for a
// cluster with only some operators, --runtimes loading runtime files with their CRD defaults,
// and the Tables of the CRDs' printer columns (trainjob_types.go, jobset_types.go).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "kubesim/builtin_types.h"
#include "kubesim/controllers/context.h"
#include "kubesim/controllers/simulation.h"
#include "kubesim/logs.h"
#include "kubesim/seed.h"
#include "kubesim/controllers/trainer_model.h"
#include "kubesim/operators.h"
#include "kubesim/rest.h"
#include "kubesim/trainer_runtimes.h"
#include "support/paths.h"

using namespace kubesim;

TEST_CASE("trainer serving: TrainJob, runtimes and JobSet are built in", "[trainer][serving]") {
  Store store;
  register_builtin_crds(store);
  const TrainerTypes t = TrainerTypes::find(store);
  REQUIRE(t.trainjobs);
  CHECK(t.trainjobs->status_subresource);
  CHECK(t.trainjobs->namespaced);
  REQUIRE(t.clustertrainingruntimes);
  CHECK(!t.clustertrainingruntimes->namespaced);
  CHECK(!t.clustertrainingruntimes->status_subresource);
  REQUIRE(t.trainingruntimes);
  REQUIRE(t.jobsets);
  CHECK(t.jobsets->status_subresource);
}

TEST_CASE("trainer serving: --operators keeps only the listed operators' resources", "[trainer][serving]") {
  Store store;
  register_builtin_crds(store);
  serve_only_operators(store, "trainer,jobset");
  CHECK(!store.find("kubeflow.org", "v1", "pytorchjobs"));
  CHECK(!store.find("kubeflow.org", "v2beta1", "mpijobs"));
  CHECK(!store.find("batch.volcano.sh", "v1alpha1", "jobs"));
  CHECK(store.find("trainer.kubeflow.org", "v1alpha1", "trainjobs"));
  CHECK(store.find("jobset.x-k8s.io", "v1alpha2", "jobsets"));
  CHECK(store.find("batch", "v1", "jobs"));  // built-in resources stay
  Store all;
  register_builtin_crds(all);
  serve_only_operators(all, "all");
  CHECK(all.find("kubeflow.org", "v1", "pytorchjobs"));
}

TEST_CASE("trainer serving: --operators refuses what no cluster has", "[trainer][serving]") {
  Store store;
  register_builtin_crds(store);
  CHECK_THROWS_WITH(serve_only_operators(store, "trainer"),
                    "--operators: trainer needs jobset (Kubeflow Trainer v2 runs TrainJobs as JobSets); add jobset");
  CHECK_THROWS_WITH(serve_only_operators(store, "jobset,kubeflow"),
                    "--operators: unknown operator \"kubeflow\" (training-operator, mpi-operator, volcano, trainer, "
                    "jobset, kueue or all)");
  CHECK_THROWS_WITH(serve_only_operators(store, "kueue"),
                    "--operators: Kueue's CRDs are not loaded; pass --schemas DIR with its kueue.x-k8s.io_*.yaml, or "
                    "leave kueue out");
}

TEST_CASE("trainer serving: --runtimes loads runtimes with their CRD defaults and replaces by name",
          "[trainer][serving]") {
  namespace fs = std::filesystem;
  Store store;
  register_builtin_crds(store);
  const fs::path dir = trainctl::testing::make_temp_dir("runtimes");
  std::ofstream(dir / "mine.yaml") << R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainingRuntime
metadata: {name: mine}
spec:
  mlPolicy: {mpi: {}}
  template:
    spec:
      replicatedJobs:
      - name: node
        template: {spec: {template: {spec: {containers: [{name: node, image: x}]}}}}
---
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources: [mine.yaml]
)";
  std::ofstream(dir / "notes.md") << "not a runtime\n";
  CHECK(load_trainer_runtimes(store, dir.string()) == 1);
  const TrainerTypes t = TrainerTypes::find(store);
  auto rt = store.get(*t.trainingruntimes, "default", "mine");
  REQUIRE(rt);
  CHECK((*rt)["spec"]["mlPolicy"]["mpi"] == json::parse(R"({"mpiImplementation": "OpenMPI", "numProcPerNode": 1,
      "runLauncherAsNode": false, "sshAuthMountPath": "/root/.ssh"})"));
  CHECK((*rt)["spec"]["template"]["spec"]["replicatedJobs"][0]["replicas"] == 1);
  CHECK((*rt)["spec"]["template"]["spec"]["replicatedJobs"][0]["groupName"] == "default");
  CHECK(load_trainer_runtimes(store, dir.string()) == 1);  // loaded again: replaced, not a conflict
  CHECK_THROWS_WITH(load_trainer_runtimes(store, (dir / "missing").string()),
                    "--runtimes: no directory " + (dir / "missing").string());
}

TEST_CASE("trainer serving: the demo's own torch-distributed runtime", "[trainer][serving]") {
  Store store;
  register_builtin_crds(store);
  REQUIRE(load_trainer_runtimes(store, std::string(TRAINCTL_SOURCE_DIR) + "/tools/kubesim/seeds/runtimes") == 1);
  const auto rt = store.get(*TrainerTypes::find(store).clustertrainingruntimes, "", "torch-distributed");
  REQUIRE(rt);
  CHECK((*rt)["metadata"]["labels"][kFrameworkLabel] == "torch");
  CHECK((*rt)["spec"]["mlPolicy"].contains("torch"));
  const json& rj = (*rt)["spec"]["template"]["spec"]["replicatedJobs"][0];
  CHECK(rj["name"] == "node");
  CHECK(rj["template"]["metadata"]["labels"][kAncestorLabel] == "trainer");
  CHECK(rj["template"]["spec"]["template"]["spec"]["containers"][0]["name"] == "node");
}

TEST_CASE("trainer serving: Tables with the CRDs' printer columns", "[trainer][serving]") {
  Store store;
  register_builtin_crds(store);
  const TrainerTypes t = TrainerTypes::find(store);
  const auto now = std::chrono::system_clock::now();
  Store::ListResult list;
  list.items.push_back(std::make_shared<const json>(json::parse(R"({"metadata": {"name": "a",
      "creationTimestamp": "2020-01-01T00:00:00Z"}, "status": {"conditions": [
        {"type": "Suspended", "status": "False"}, {"type": "Complete", "status": "True"}]}})")));
  list.items.push_back(std::make_shared<const json>(json::parse(R"({"metadata": {"name": "b",
      "creationTimestamp": "2020-01-01T00:00:00Z"}})")));
  json table = json::parse(table_for(*t.trainjobs, list, false, now));
  CHECK(table["columnDefinitions"][1]["name"] == "State");
  CHECK(table["columnDefinitions"][2]["type"] == "date");
  CHECK(table["rows"][0]["cells"][1] == "Complete");  // the last condition, whatever its status
  CHECK(table["rows"][1]["cells"][1].is_null());       // no conditions: no cell, printed empty
  Store::ListResult jobsets;
  jobsets.items.push_back(std::make_shared<const json>(json::parse(R"({"metadata": {"name": "js",
      "creationTimestamp": "2020-01-01T00:00:00Z"}, "spec": {"suspend": false},
      "status": {"terminalState": "Completed", "restarts": 2, "conditions": [{"type": "Completed", "status": "True"}]}})")));
  table = json::parse(table_for(*t.jobsets, jobsets, false, now));
  std::vector<std::string> names;
  for (const auto& c : table["columnDefinitions"]) names.push_back(c["name"]);
  CHECK(names == std::vector<std::string>{"Name", "TerminalState", "Restarts", "Completed", "Suspended", "Age"});
  CHECK(table["rows"][0]["cells"][1] == "Completed");
  CHECK(table["rows"][0]["cells"][2] == "2");
  CHECK(table["rows"][0]["cells"][3] == "True");
  CHECK(table["rows"][0]["cells"][4] == "false");
}

TEST_CASE("trainer serving: generated TrainJobs are what the controllers would leave", "[trainer][serving][seed]") {
  Store store;
  LogStore logs;
  GenerateOptions o;
  o.nodes = 12;
  o.jobs = 0;
  o.pods = 0;
  o.trainjobs = 20;
  o.namespaces = 2;
  const GenerateStats stats = generate_cluster(store, o);
  CHECK(stats.trainjobs == 20);
  const TrainerTypes t = TrainerTypes::find(store);
  CHECK(store.count(*t.trainjobs) == 20);
  CHECK(store.count(*t.jobsets) == 20);
  const json tj = *store.get(*t.trainjobs, "team-1", "train-000001");
  CHECK(tj["spec"]["trainer"]["numNodes"] == 2);
  const json job = *store.get(*t.jobs, "team-1", "train-000001-node-0");
  CHECK(job["metadata"]["labels"][kJobSetNameKey] == "train-000001");
  CHECK(job["spec"]["parallelism"] == 2);
  size_t pods = 0;
  for (const auto& p : store.list(*t.pods, "team-1").items)
    if ((*p)["metadata"]["labels"].value(kJobSetNameKey, "") == "train-000001") {
      ++pods;
      CHECK((*p)["spec"]["hostname"].get<std::string>().rfind("train-000001-node-0-", 0) == 0);
      CHECK((*p)["spec"]["subdomain"] == "train-000001");
    }
  CHECK(pods == 2);
  // The controllers find nothing to do: no new pod, no event, the statuses as generated.
  std::vector<json> jobsets;
  for (const auto& js : store.list(*t.jobsets, "").items) jobsets.push_back(*js);
  SimulationOptions so;
  so.manual_clock = true;
  Simulation sim(store, logs, so);
  sim.settle();
  CHECK(store.count(*t.pods) == stats.pods);
  CHECK(store.count(*store.find("", "v1", "events")) == 0);
  CHECK(*store.get(*t.trainjobs, "team-1", "train-000001") == tj);
  for (const auto& js : jobsets)
    CHECK(store.get(*t.jobsets, meta_ns(js), meta_name(js))->at("status") == js["status"]);
}
