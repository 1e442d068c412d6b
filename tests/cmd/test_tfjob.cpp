// TFJobs in list, get and top job: Arena's columns with TRAINER TFJOB, the chief (the Chief
// replica, else worker 0) as NODE, and the TFJob pods told apart from the PyTorchJob pods in
// the shared training.kubeflow.org/job-name list.
#include <catch2/catch.hpp>

#include "cmd_harness.h"
#include "get_stubs.h"
#include "scenario.h"

using nlohmann::json;
using trainctl::testing::FakeClient;

namespace {

using namespace fixtures;

// tf-dist: created 09:58, started 09:58:10 -> RUNNING for 1m50s; 1 ps + 2 workers x 1 GPU, no
// Chief replica: worker 0 (node-2, 192.168.0.32) is the chief.
json tf_dist() {
  json status = {{"startTime", "2024-05-01T09:58:10Z"},
                 {"conditions", json::array({condition("Created", "True", "2024-05-01T09:58:00Z"),
                                             condition("Running", "True", "2024-05-01T09:58:10Z")})}};
  return tfjob("tf-dist", "2024-05-01T09:58:00Z", 1, 2, 1, false, status);
}
std::vector<json> tf_dist_pods() {
  return {pod("tf-dist-ps-0", tf_labels("tf-dist", "ps", 0), "Running", 1, "node-1", "default",
              "2024-05-01T09:58:01Z"),
          pod("tf-dist-worker-1", tf_labels("tf-dist", "worker", 1), "Running", 1, "node-3", "default",
              "2024-05-01T09:58:01Z"),
          pod("tf-dist-worker-0", tf_labels("tf-dist", "worker", 0), "Running", 1, "node-2", "default",
              "2024-05-01T09:58:01Z")};
}

// tf-chief: created 09:40, ran 09:40:05 -> 09:45:05, SUCCEEDED; the Chief replica's pod on
// node-4 is the chief.
json tf_chief() {
  json status = {{"startTime", "2024-05-01T09:40:05Z"},
                 {"completionTime", "2024-05-01T09:45:05Z"},
                 {"conditions", json::array({condition("Created", "True", "2024-05-01T09:40:00Z"),
                                             condition("Running", "False", "2024-05-01T09:45:05Z"),
                                             condition("Succeeded", "True", "2024-05-01T09:45:05Z")})}};
  return tfjob("tf-chief", "2024-05-01T09:40:00Z", 0, 1, 2, true, status);
}
std::vector<json> tf_chief_pods() {
  return {pod("tf-chief-worker-0", tf_labels("tf-chief", "worker", 0), "Succeeded", 2, "node-3", "default",
              "2024-05-01T09:40:01Z"),
          pod("tf-chief-chief-0", tf_labels("tf-chief", "chief", 0), "Succeeded", 2, "node-4", "default",
              "2024-05-01T09:40:01Z")};
}

void stub_tf_cluster(FakeClient& c) {
  using namespace scenario;
  c.on_get(paths::kPyTorchJobs, FakeClient::list(json::array({pytorch_dist()})));
  c.on_not_found(paths::kMPIJobs);
  c.on_not_found(paths::kVolcanoJobs);
  c.on_get(paths::kBatchJobs, FakeClient::list(json::array()));
  c.on_get(paths::kTFJobs, FakeClient::list(json::array({tf_chief(), tf_dist()})));
  c.on_not_found(paths::kTrainJobs);
  c.on_get(paths::kJobSetPods, FakeClient::list(json::array()));
  c.on_get(paths::kLegacyPods, FakeClient::list(json::array()));
  c.on_get(paths::kTrainingPods,
           FakeClient::list(concat(tf_dist_pods(), pytorch_dist_pods(), tf_chief_pods())));
  c.on_get(paths::kVolcanoPods, FakeClient::list(json::array()));
  c.on_get(paths::kBatchPods, FakeClient::list(json::array()));
}

}  // namespace

TEST_CASE("list shows TFJobs with Arena's columns beside the other kinds") {
  Harness h;
  stub_tf_cluster(*h.client);
  h.run({"list"});
  // tf-dist: 1m50s since startTime, 3 GPUs, NODE = worker 0's host; tf-chief: 5m, the Chief's host.
  CHECK(h.out() ==
        "NAME          STATUS     TRAINER     DURATION  GPU(Requested)  GPU(Allocated)  NODE\n"
        "pytorch-dist  RUNNING    PYTORCHJOB  21s       3               3               192.168.0.31\n"
        "tf-dist       RUNNING    TFJOB       1m        3               3               192.168.0.32\n"
        "tf-chief      SUCCEEDED  TFJOB       5m        4               N/A             192.168.0.34\n");
  CHECK(h.err().empty());
  CHECK_NOTHROW(h.client->verify());
}

TEST_CASE("list -T tf reads only TFJobs and their pods; -o json names the chief") {
  Harness h;
  auto& c = *h.client;
  c.on_get(paths::kTFJobs, FakeClient::list(json::array({tf_dist()})));
  c.on_get(paths::kLegacyPods, FakeClient::list(json::array()));
  c.on_get(paths::kTrainingPods,
           FakeClient::list(scenario::concat(tf_dist_pods(), scenario::pytorch_dist_pods())));
  h.run({"list", "-T", "tf", "-o", "json"});
  const json j = json::parse(h.out());
  REQUIRE(j.size() == 1);
  CHECK(j[0]["name"] == "tf-dist");
  CHECK(j[0]["trainer"] == "tfjob");
  CHECK(j[0]["status"] == "RUNNING");
  CHECK(j[0]["chiefName"] == "tf-dist-worker-0");
  CHECK(j[0]["requestGPUs"] == 3);
  CHECK(j[0]["instances"].size() == 3);  // the PyTorchJob's pods are not the TFJob's
  CHECK(j[0]["instances"][0]["name"] == "tf-dist-worker-0");
  CHECK(j[0]["instances"][0]["isChief"] == true);
  CHECK_NOTHROW(c.verify());
}

TEST_CASE("get of a TFJob: TRAINER TFJOB, the Chief replica's pod first") {
  Harness h;
  get_stubs::stub_job(*h.client, 4, "tf-chief", tf_chief(), scenario::concat(tf_chief_pods()));
  get_stubs::stub_tensorboard(*h.client, "tf-chief", json::array());
  h.run({"get", "tf-chief"});
  const std::string out = h.out();
  CHECK(out.rfind("Name:        tf-chief\nStatus:      SUCCEEDED\n", 0) == 0);
  CHECK(out.find("Trainer:     TFJOB\nDuration:    5m\n") != std::string::npos);
  const size_t chief = out.find("tf-chief-chief-0 ");
  const size_t worker = out.find("tf-chief-worker-0 ");
  REQUIRE(chief != std::string::npos);
  REQUIRE(worker != std::string::npos);
  CHECK(chief < worker);
  CHECK(out.find("tf-chief-chief-0   Completed  5m   true") != std::string::npos);
  CHECK_NOTHROW(h.client->verify());
}

TEST_CASE("get -T tf reads the TFJob and its own pods only") {
  Harness h;
  get_stubs::stub_job(*h.client, 4, "tf-dist", tf_dist(), scenario::concat(tf_dist_pods()), true);
  get_stubs::stub_tensorboard(*h.client, "tf-dist", json::array());
  h.run({"get", "tf-dist", "-T", "tensorflow"});
  CHECK(h.out().find("Trainer:     TFJOB\n") != std::string::npos);
  CHECK(h.out().find("tf-dist-worker-0  Running  1m   true") != std::string::npos);
  CHECK_NOTHROW(h.client->verify());
}

TEST_CASE("top job counts TFJob GPUs") {
  Harness h;
  stub_tf_cluster(*h.client);
  h.run({"top", "job"});
  CHECK(h.out().find(
            "tf-dist       RUNNING    TFJOB       1m   3               3               192.168.0.32\n") !=
        std::string::npos);
  CHECK(h.out().find("Total Allocated/Requested GPUs of Training Jobs: 6/6\n") != std::string::npos);
  CHECK_NOTHROW(h.client->verify());
}
