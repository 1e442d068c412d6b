#include <catch2/catch.hpp>

#include "cmd_harness.h"
#include "core/errors.h"
#include "scenario.h"

using nlohmann::json;
using trainctl::testing::FakeClient;

namespace {
void stub_scenario(FakeClient& c) {
  using namespace scenario;
  c.on_get(paths::kPyTorchJobs, FakeClient::list(json::array({pytorch_git(), pytorch_dist()})));
  c.on_get(paths::kMPIJobs, FakeClient::list(json::array({mpi_pending()})));
  c.on_get(paths::kVolcanoJobs, FakeClient::list(json::array({vj()})));
  c.on_get(paths::kBatchJobs, FakeClient::list(json::array()));
  c.on_not_found(paths::kTFJobs);  // a cluster without the TFJob CRD
  c.on_get(paths::kLegacyPods, FakeClient::list(json::array()));
  c.on_get(paths::kTrainingPods,
           FakeClient::list(concat(pytorch_dist_pods(), pytorch_git_pods(), mpi_pending_pods())));
  c.on_get(paths::kVolcanoPods, FakeClient::list(concat(vj_pods())));
  c.on_get(paths::kBatchPods, FakeClient::list(json::array()));
  c.on_not_found(paths::kTrainJobs);  // a cluster without Kubeflow Trainer v2
  c.on_get(paths::kJobSetPods, FakeClient::list(json::array()));
}
}  // namespace

TEST_CASE("list prints Arena's columns, newest first, in one parallel round trip") {
  Harness h;
  stub_scenario(*h.client);
  h.run({"list"});
  // Checked by hand: DURATION 21s (now - startTime), 5m (completion - start = 5m50s),
  // MPI 5m (now - creation), Volcano 2h; allocated N/A for the finished job; NODE = chief host IP.
  CHECK(h.out() ==
        "NAME          STATUS     TRAINER     DURATION  GPU(Requested)  GPU(Allocated)  NODE\n"
        "pytorch-dist  RUNNING    PYTORCHJOB  21s       3               3               192.168.0.31\n"
        "mpi-pending   PENDING    MPIJOB      5m        2               0               N/A\n"
        "pytorch-git   SUCCEEDED  PYTORCHJOB  5m        1               N/A             192.168.0.33\n"
        "vj            RUNNING    VOLCANOJOB  2h        2               2               192.168.0.33\n");
  CHECK(h.err().empty());
  REQUIRE(h.client->batches().size() == 1);
  CHECK(h.client->batches()[0] == 11);  // 6 job lists, 5 pod lists (one of older releases' pods)
  CHECK_NOTHROW(h.client->verify());
}

TEST_CASE("list on a colour TTY colours STATUS; in a pipe there are no escape codes") {
  Harness tty(true);
  stub_scenario(*tty.client);
  tty.run({"ls"});
  CHECK(tty.out().find("\x1b[32mRUNNING\x1b[0m") != std::string::npos);
  CHECK(tty.out().find("\x1b[33mPENDING\x1b[0m") != std::string::npos);

  Harness pipe(false);
  stub_scenario(*pipe.client);
  pipe.run({"ls"});
  CHECK(pipe.out().find('\x1b') == std::string::npos);
}

TEST_CASE("list -A adds NAMESPACE first and lists every namespace") {
  Harness h;
  auto& c = *h.client;
  using namespace scenario;
  c.on_get("/apis/kubeflow.org/v1/pytorchjobs?limit=100",
           FakeClient::list(
               json::array({pytorchjob("a", "2024-05-01T09:00:00Z", 1, 2, json::object(), "team-a")})));
  c.on_get("/apis/kubeflow.org/v2beta1/mpijobs?limit=100", FakeClient::list(json::array()));
  c.on_get("/apis/batch.volcano.sh/v1alpha1/jobs?limit=100", FakeClient::list(json::array()));
  c.on_get("/apis/kubeflow.org/v1/tfjobs?limit=100", FakeClient::list(json::array()));
  c.on_get("/apis/trainer.kubeflow.org/v1alpha1/trainjobs?limit=100", FakeClient::list(json::array()));
  c.on_get("/api/v1/pods?labelSelector=jobset.sigs.k8s.io%2Fjobset-name&limit=100",
           FakeClient::list(json::array()));
  c.on_get(
      "/apis/batch/v1/jobs?labelSelector=app%3Dpytorchjob%2Ctrainctl.io%2Foperator%3Dnone&limit=100",
      FakeClient::list(json::array({batchjob(
          "b", "2024-05-01T09:30:00Z", {{"active", 2}, {"startTime", "2024-05-01T09:30:00Z"}}, "team-b")})));
  c.on_get("/api/v1/pods?labelSelector=group-name%3Dkubeflow.org%2C%21training.kubeflow.org%2Fjob-name&limit=100",
           FakeClient::list(json::array()));
  c.on_get("/api/v1/pods?labelSelector=training.kubeflow.org%2Fjob-name&limit=100",
           FakeClient::list(json::array(
               {pod("a-master-0", pytorch_labels("a", "master", 0), "Pending", 2, "", "team-a")})));
  c.on_get("/api/v1/pods?labelSelector=volcano.sh%2Fjob-name&limit=100", FakeClient::list(json::array()));
  c.on_get(
      "/api/v1/pods?labelSelector=job-name%2C%21jobset.sigs.k8s.io%2Fjobset-name%2C%21training.kubeflow.org%2Fjob-"
      "name&limit=100",
      FakeClient::list(json::array({pod("b-0-x", batch_labels("b", 0), "Running", 1, "node-2", "team-b"),
                                    pod("b-1-y", batch_labels("b", 1), "Running", 1, "node-1", "team-b")})));
  h.run({"list", "-A"});
  CHECK(h.out() ==
        "NAMESPACE  NAME  STATUS   TRAINER     DURATION  GPU(Requested)  GPU(Allocated)  NODE\n"
        "team-b     b     RUNNING  PYTORCHJOB  30m       2               2               192.168.0.32\n"
        "team-a     a     PENDING  PYTORCHJOB  0s        2               0               N/A\n");
  CHECK_NOTHROW(h.client->verify());
}

TEST_CASE("list skips a kind whose CRD is not installed, and -T narrows the kinds") {
  Harness h;
  auto& c = *h.client;
  c.on_not_found(paths::kMPIJobs);
  c.on_get(paths::kTrainingPods, FakeClient::list(json::array()));
  h.run({"list", "-T", "MPI"});  // no older releases' pods: mpi-operator labels as it always did
  CHECK(h.out() == "NAME  STATUS  TRAINER  DURATION  GPU(Requested)  GPU(Allocated)  NODE\n");
  CHECK(h.err().empty());
  CHECK_NOTHROW(c.verify());
}

TEST_CASE("list follows continue tokens: a first page of 100, later ones by bytes, at most 500") {
  Harness h;
  auto& c = *h.client;
  using namespace scenario;
  c.on_get(paths::kPyTorchJobs, FakeClient::list(json::array({pytorch_dist()}), "page2"));
  c.on_get("/apis/kubeflow.org/v1/namespaces/default/pytorchjobs?limit=500&continue=page2",
           FakeClient::list(json::array({pytorch_git()})));
  c.on_get(paths::kBatchJobs, FakeClient::list(json::array()));
  c.on_get(paths::kLegacyPods, FakeClient::list(json::array()));
  c.on_get(paths::kTrainingPods, FakeClient::list(json::array()));
  c.on_get(paths::kBatchPods, FakeClient::list(json::array()));
  h.run({"list", "--type", "py", "-o", "name"});
  CHECK(h.out() == "pytorchjob/pytorch-dist\npytorchjob/pytorch-git\n");
  CHECK_NOTHROW(c.verify());
}

TEST_CASE("list -o json is the documented shape; -o yaml is the same data") {
  Harness h;
  stub_scenario(*h.client);
  h.run({"list", "-o", "json"});
  auto j = nlohmann::json::parse(h.out());
  REQUIRE(j.is_array());
  REQUIRE(j.size() == 4);
  CHECK(j[0]["name"] == "pytorch-dist");
  CHECK(j[0]["trainer"] == "pytorchjob");
  CHECK(j[0]["status"] == "RUNNING");
  CHECK(j[0]["duration"] == "21s");
  CHECK(j[0]["requestGPUs"] == 3);
  CHECK(j[0]["allocatedGPUs"] == 3);
  CHECK(j[0]["chiefName"] == "pytorch-dist-master-0");
  CHECK(j[0]["nodeIP"] == "192.168.0.31");
  CHECK(j[0]["createTime"] == "2024-05-01T09:59:30Z");
  CHECK(j[0]["instances"].size() == 3);
  CHECK(j[0]["instances"][0]["isChief"] == true);
  CHECK(j[2]["endTime"] == "2024-05-01T09:19:50Z");  // created 09:14:00 + 5m50s

  Harness y;
  stub_scenario(*y.client);
  y.run({"list", "-o", "yaml"});
  CHECK(y.out().rfind("- name: pytorch-dist\n", 0) == 0);
  CHECK(y.out().find("  duration: 21s\n") != std::string::npos);
}

TEST_CASE("list rejects an unknown output format and an unknown type before sending anything") {
  Harness h;
  CHECK_THROWS_AS(h.run({"list", "-o", "xml"}), trainctl::UsageError);
  CHECK_THROWS_AS(h.run({"list", "-T", "xgboost"}), trainctl::UsageError);
  CHECK(h.client->requests().empty());
}

TEST_CASE("a pod name with escape sequences is shown escaped") {
  Harness h(true);
  auto& c = *h.client;
  using namespace scenario;
  json job = pytorchjob("evil\x1b[2Jjob", "2024-05-01T09:00:00Z", 1, 0);
  c.on_get(paths::kPyTorchJobs, FakeClient::list(json::array({job})));
  c.on_get(paths::kBatchJobs, FakeClient::list(json::array()));
  c.on_get(paths::kLegacyPods, FakeClient::list(json::array()));
  c.on_get(paths::kTrainingPods, FakeClient::list(json::array()));
  c.on_get(paths::kBatchPods, FakeClient::list(json::array()));
  h.run({"list", "-T", "pytorch"});
  CHECK(h.out().find("\x1b[2J") == std::string::npos);
  CHECK(h.out().find("evil\\x1b[2Jjob") != std::string::npos);
}
