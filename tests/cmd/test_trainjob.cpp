// TrainJobs in list, get and top job: TRAINER TRAINJOB, the node of rank 0 as chief, the JobSet's
// pods (jobset.sigs.k8s.io/jobset-name), the progress of status.trainerStatus in get, list -o
// wide and -o json; a cluster without the TrainJob CRD lists the other kinds silently.
#include <catch2/catch.hpp>

#include "cmd_harness.h"
#include "get_stubs.h"
#include "scenario.h"

using nlohmann::json;
using trainctl::testing::FakeClient;

namespace {

using namespace fixtures;

// mnist: created 09:55, two nodes of 2 GPUs running; rank 0 on node-2 (192.168.0.32); the
// trainer reported 42 % at 09:59:50 with 1h left.
json mnist() {
  json status = {{"jobsStatus", json::array({{{"name", "node"},
                                              {"ready", 1},
                                              {"succeeded", 0},
                                              {"failed", 0},
                                              {"active", 1},
                                              {"suspended", 0}}})},
                 {"trainerStatus",
                  {{"progressPercentage", 42},
                   {"estimatedRemainingSeconds", 3725},
                   {"metrics", json::array({{{"name", "loss"}, {"value", "0.231"}}})},
                   {"lastUpdatedTime", "2024-05-01T09:59:50Z"}}}};
  return trainjob("mnist", "2024-05-01T09:55:00Z", "torch-distributed", 2, 2, status);
}
json mnist_pod(int rank, const std::string& node) {
  json p = pod("mnist-node-0-" + std::to_string(rank) + "-x7k2p", trainjob_labels("mnist", "node", rank),
               "Running", 2, node, "default", "2024-05-01T09:55:05Z");
  p["spec"]["containers"][0]["name"] = "node";
  p["status"]["containerStatuses"][0]["name"] = "node";
  return p;
}
std::vector<json> mnist_pods() { return {mnist_pod(1, "node-3"), mnist_pod(0, "node-2")}; }

void stub_cluster(FakeClient& c, bool trainjobs_served = true) {
  using namespace scenario;
  c.on_get(paths::kPyTorchJobs, FakeClient::list(json::array({pytorch_dist()})));
  c.on_not_found(paths::kMPIJobs);
  c.on_not_found(paths::kVolcanoJobs);
  c.on_get(paths::kBatchJobs, FakeClient::list(json::array()));
  c.on_not_found(paths::kTFJobs);
  if (trainjobs_served)
    c.on_get(paths::kTrainJobs, FakeClient::list(json::array({mnist()})));
  else
    c.on_not_found(paths::kTrainJobs);  // a cluster without Kubeflow Trainer v2
  c.on_get(paths::kLegacyPods, FakeClient::list(json::array()));
  c.on_get(paths::kTrainingPods, FakeClient::list(concat(pytorch_dist_pods())));
  c.on_get(paths::kVolcanoPods, FakeClient::list(json::array()));
  c.on_get(paths::kBatchPods, FakeClient::list(json::array()));
  c.on_get(paths::kJobSetPods, FakeClient::list(trainjobs_served ? concat(mnist_pods()) : json::array()));
}

}  // namespace

TEST_CASE("list shows TrainJobs beside the other kinds; -o wide adds PROGRESS") {
  Harness h;
  stub_cluster(*h.client);
  h.run({"list"});
  CHECK(h.out() ==
        "NAME          STATUS   TRAINER     DURATION  GPU(Requested)  GPU(Allocated)  NODE\n"
        "pytorch-dist  RUNNING  PYTORCHJOB  21s       3               3               192.168.0.31\n"
        "mnist         RUNNING  TRAINJOB    5m        4               4               192.168.0.32\n");
  CHECK(h.err().empty());
  CHECK_NOTHROW(h.client->verify());

  Harness wide;
  stub_cluster(*wide.client);
  wide.run({"list", "-o", "wide"});
  CHECK(wide.out() ==
        "NAME          STATUS   TRAINER     DURATION  GPU(Requested)  GPU(Allocated)  NODE          PROGRESS "
        "     "
        "REASON\n"
        "pytorch-dist  RUNNING  PYTORCHJOB  21s       3               3               192.168.0.31  -        "
        "     -\n"
        "mnist         RUNNING  TRAINJOB    5m        4               4               192.168.0.32  42% (ETA "
        "1h)  "
        "-\n");
}

TEST_CASE("list skips TrainJobs where the CRD is not served, and shows no PROGRESS column") {
  Harness h;
  stub_cluster(*h.client, false);
  h.run({"list", "-o", "wide"});
  CHECK(h.out().find("TRAINJOB") == std::string::npos);
  CHECK(h.out().find("PROGRESS") == std::string::npos);
  CHECK(h.out().find("pytorch-dist") != std::string::npos);
  CHECK(h.err().empty());
}

TEST_CASE("list -T tj reads only TrainJobs and the JobSet pods; -o json carries the progress") {
  Harness h;
  auto& c = *h.client;
  c.on_get(paths::kTrainJobs, FakeClient::list(json::array({mnist()})));
  c.on_get(paths::kJobSetPods, FakeClient::list(scenario::concat(mnist_pods())));
  h.run({"list", "-T", "tj", "-o", "json"});
  const json j = json::parse(h.out());
  REQUIRE(j.size() == 1);
  CHECK(j[0]["kind"] == "TrainJob");
  CHECK(j[0]["apiVersion"] == "trainer.kubeflow.org/v1alpha1");
  CHECK(j[0]["trainer"] == "trainjob");
  CHECK(j[0]["chiefName"] == "mnist-node-0-0-x7k2p");
  CHECK(j[0]["instances"][0]["name"] == "mnist-node-0-0-x7k2p");
  CHECK(j[0]["progress"] == json{{"percent", 42},
                                 {"remainingSeconds", 3725},
                                 {"metrics", {{"loss", "0.231"}}},
                                 {"lastUpdated", "2024-05-01T09:59:50Z"}});
  CHECK_NOTHROW(c.verify());
}

TEST_CASE("get of a TrainJob: TRAINER TRAINJOB, its progress, rank 0 first") {
  Harness h;
  get_stubs::stub_job(*h.client, 5, "mnist", mnist(), scenario::concat(mnist_pods()));
  get_stubs::stub_tensorboard(*h.client, "mnist", json::array());
  h.run({"get", "mnist"});
  const std::string out = h.out();
  CHECK(out.rfind("Name:        mnist\nStatus:      RUNNING\n", 0) == 0);
  CHECK(
      out.find("Trainer:     TRAINJOB\nDuration:    5m\nProgress:    42% (ETA 1h)\nMetrics:     loss=0.231\n"
               "Reported:    2024-05-01 09:59:50\n") != std::string::npos);
  const size_t chief = out.find("mnist-node-0-0-x7k2p ");
  const size_t other = out.find("mnist-node-0-1-x7k2p ");
  REQUIRE(chief != std::string::npos);
  REQUIRE(other != std::string::npos);
  CHECK(chief < other);
  CHECK_NOTHROW(h.client->verify());
}

TEST_CASE("top job counts TrainJob GPUs") {
  Harness h;
  stub_cluster(*h.client);
  h.run({"top", "job"});
  CHECK(h.out().find(
            "mnist         RUNNING  TRAINJOB    5m   4               4               192.168.0.32\n") !=
        std::string::npos);
  CHECK_NOTHROW(h.client->verify());
}
