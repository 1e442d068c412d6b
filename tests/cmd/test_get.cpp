#include <catch2/catch.hpp>

#include "cmd_harness.h"
#include "core/errors.h"
#include "core/log.h"
#include "get_stubs.h"
#include "queue_stubs.h"
#include "scenario.h"

using namespace get_stubs;
using namespace fixtures;

TEST_CASE("get prints Arena's newer layout (seed 004) from one parallel round trip") {
  Harness h;
  const std::string name = "pytorch-topo-4-vgg16";
  json status = {
      {"startTime", "2024-05-01T09:59:50Z"},
      {"conditions", json::array({condition("Created", "True", "2024-05-01T09:59:49Z", "MPIJobCreated"),
                                  condition("Running", "True", "2024-05-01T09:59:50Z", "MPIJobRunning")})}};
  const std::string node = "cn-shanghai.192.168.16.173";
  json pods = json::array({pod(name + "-launcher-mnjzr", mpi_labels(name, "launcher"), "Running", 0, node)});
  for (int i = 3; i >= 0; --i)
    pods.push_back(
        pod(name + "-worker-" + std::to_string(i), mpi_labels(name, "worker"), "Running", 1, node));
  stub_job(*h.client, 1, name, mpijob(name, "2024-05-01T09:59:49Z", 4, 1, status), pods, true);
  stub_tensorboard(*h.client, name, json::array());
  h.run({"get", name, "--type", "mpijob"});
  // The rows are seed 004's, with Go tabwriter spacing restored; times in UTC.
  CHECK(h.out() ==
        "Name:        pytorch-topo-4-vgg16\n"
        "Status:      RUNNING\n"
        "Namespace:   default\n"
        "Priority:    N/A\n"
        "Trainer:     MPIJOB\n"
        "Duration:    11s\n"
        "CreateTime:  2024-05-01 09:59:49\n"
        "EndTime:\n"
        "\n"
        "Instances:\n"
        "NAME                                 STATUS   AGE  IS_CHIEF  GPU(Requested)  NODE\n"
        "----                                 ------   ---  --------  --------------  ----\n"
        "pytorch-topo-4-vgg16-launcher-mnjzr  Running  11s  true      0               "
        "cn-shanghai.192.168.16.173\n"
        "pytorch-topo-4-vgg16-worker-0        Running  11s  false     1               "
        "cn-shanghai.192.168.16.173\n"
        "pytorch-topo-4-vgg16-worker-1        Running  11s  false     1               "
        "cn-shanghai.192.168.16.173\n"
        "pytorch-topo-4-vgg16-worker-2        Running  11s  false     1               "
        "cn-shanghai.192.168.16.173\n"
        "pytorch-topo-4-vgg16-worker-3        Running  11s  false     1               "
        "cn-shanghai.192.168.16.173\n");
  REQUIRE(h.client->batches().size() == 1);
  // -T mpijob: the MPIJob, its pods, TensorBoard services.
  CHECK(h.client->batches()[0] == 3);
  CHECK_NOTHROW(h.client->verify());
}

namespace {
json tensorboard_service() {
  return {{"metadata",
           {{"name", "pytorch-dist-tensorboard"},
            {"labels", {{"role", "tensorboard"}, {"release", "pytorch-dist"}}}}},
          {"spec", {{"type", "NodePort"}, {"ports", json::array({{{"port", 6006}, {"nodePort", 30131}}})}}}};
}
}  // namespace

TEST_CASE("get shows the TensorBoard URL: the NodePort on the chief's node, in one round of reads") {
  Harness h;
  stub_job(*h.client, 0, "pytorch-dist", scenario::pytorch_dist(),
           scenario::concat(scenario::pytorch_dist_pods()));
  stub_tensorboard(*h.client, "pytorch-dist", json::array({tensorboard_service()}));
  h.run({"get", "pytorch-dist"});
  const std::string out = h.out();
  CHECK(out.rfind("Name:        pytorch-dist\nStatus:      RUNNING\n", 0) == 0);
  CHECK(out.find("Trainer:     PYTORCHJOB\nDuration:    21s\n") != std::string::npos);
  CHECK(out.find("pytorch-dist-master-0  Running  21s  true      1               node-1\n") !=
        std::string::npos);
  // The master runs on node-1 (fixtures: host IP 192.168.0.31).
  const std::string tail = "\nYour tensorboard will be available on:\nhttp://192.168.0.31:30131\n";
  REQUIRE(out.size() > tail.size());
  CHECK(out.substr(out.size() - tail.size()) == tail);
  REQUIRE(h.client->batches().size() == 1);
  // 6 job GETs, 4 pod lists (PyTorchJob, MPIJob and TFJob share one), the older releases' pods
  // (jobs/legacy_pods.h), the services: more than the client's 8 connections per host.
  CHECK(h.client->batches()[0] == 12);
  CHECK_NOTHROW(h.client->verify());
}

namespace {
// Three nodes of one GPU each, every GPU held by a pod of another namespace.
json busy_nodes() {
  json nodes = json::array();
  for (int i = 1; i <= 3; ++i) {
    const std::string n = "node-" + std::to_string(i);
    nodes.push_back(
        node(n, true, "192.168.0.3" + std::to_string(i), json::object(), {{"nvidia.com/gpu", "1"}}));
  }
  return nodes;
}
json busy_pods() {
  json pods = json::array();
  for (int i = 1; i <= 3; ++i)
    pods.push_back(pod("other-" + std::to_string(i), json::object(), "Running", 1,
                       "node-" + std::to_string(i), "team-b"));
  return pods;
}
json failed_scheduling(const std::string& pod, const std::string& at) {
  return {
      {"involvedObject", {{"kind", "Pod"}, {"name", pod}, {"namespace", "default"}}},
      {"type", "Warning"},
      {"reason", "FailedScheduling"},
      {"message",
       "0/3 nodes are available: 3 Insufficient nvidia.com/gpu. preemption: 0/3 nodes are available: 3 No "
       "preemption victims found for incoming pod."},
      {"lastTimestamp", at}};
}
// The pending MPIJob of the scenario, the reads of get before the explanation, and its queue
// reads (no Kueue, no Volcano).
void stub_mpi_pending(FakeClient& c, const json& services = json::array()) {
  stub_job(c, 1, "mpi-pending", scenario::mpi_pending(), scenario::concat(scenario::mpi_pending_pods()));
  stub_tensorboard(c, "mpi-pending", services);
  queue_stubs::stub_no_queues(c);
}
}  // namespace

TEST_CASE("get: without a scheduled pod there is no TensorBoard URL; it says why the job is pending") {
  Harness h;
  stub_mpi_pending(*h.client, json::array({tensorboard_service()}));
  stub_pending(*h.client,
               json::array({failed_scheduling("mpi-pending-worker-0", "2024-05-01T09:58:00Z"),
                            failed_scheduling("mpi-pending-worker-1", "2024-05-01T09:58:00Z"),
                            failed_scheduling("someone-else-0", "2024-05-01T09:58:00Z")}),
               busy_nodes(), busy_pods());
  h.run({"get", "mpi-pending"});
  const std::string out = h.out();
  CHECK(out.find("tensorboard") == std::string::npos);
  // The workers' newest FailedScheduling events, the launcher's PodScheduled condition, and
  // the fit check: every node's GPU is held by a pod of team-b.
  const std::string pending =
      "\nPending:     Unschedulable: 2 pods: 0/3 nodes are available: 3 Insufficient nvidia.com/gpu. "
      "preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.\n"
      "             pod mpi-pending-launcher-x7r2n: 0/3 nodes are available: 3 Insufficient nvidia.com/gpu.\n"
      "             (1 more in -o json)\n";
  REQUIRE(out.size() > pending.size());
  CHECK(out.substr(out.size() - pending.size()) == pending);
  // Two rounds: the job's, then the explanation's (Warning events, PodGroups, nodes, pods)
  // with the queue's Workloads (its PodGroups are the explanation's).
  REQUIRE(h.client->batches().size() == 2);
  CHECK(h.client->batches()[1] == 5);
  CHECK_NOTHROW(h.client->verify());
}

TEST_CASE("get -o json: the pending explanation with every detail") {
  Harness h;
  stub_mpi_pending(*h.client);
  stub_pending(*h.client, json::array(), busy_nodes(), busy_pods());
  h.run({"get", "mpi-pending", "-o", "json"});
  const auto j = json::parse(h.out());
  CHECK(j["pending"]["reason"] == "Unschedulable");
  CHECK(j["pending"]["message"] == "3 pods: 0/3 nodes are available: 3 Insufficient nvidia.com/gpu.");
  CHECK(j["pending"]["details"] ==
        json::array({"2 pods need 1 GPU on one node, the most free on any node is 0"}));
  CHECK_NOTHROW(h.client->verify());
}

TEST_CASE("get of a pending job for a user who may not list events, nodes or all pods (403) still works") {
  Harness h;
  stub_mpi_pending(*h.client);
  h.client->on_forbidden(pending_paths::kWarnings);
  h.client->on_not_found(pending_paths::kPodGroups);
  h.client->on_forbidden(pending_paths::kNodes);
  h.client->on_forbidden(pending_paths::kPods);
  h.run({"get", "mpi-pending", "-o", "json"});
  const auto j = json::parse(h.out());
  CHECK(j["status"] == "PENDING");
  // From the pods get read itself: their PodScheduled condition. No fit check without nodes.
  CHECK(j["pending"]["reason"] == "Unschedulable");
  CHECK(j["pending"]["message"] == "3 pods: 0/3 nodes are available: 3 Insufficient nvidia.com/gpu.");
  CHECK(j["pending"]["details"] ==
        json::array({"not read: events (403 Forbidden), nodes (403 Forbidden), pods of all namespaces (403 "
                     "Forbidden)"}));
  CHECK(h.err().empty());
  CHECK_NOTHROW(h.client->verify());
}

TEST_CASE("get of a pending job whose explanation cannot be read at all prints the job") {
  Harness h;
  stub_mpi_pending(*h.client);
  // A list that breaks on its second page is an error of the round, not a refusal.
  h.client->on_get(pending_paths::kWarnings, FakeClient::list(json::array(), "next"));
  h.client->on("GET", "/api/v1/namespaces/default/events?fieldSelector=type%3DWarning&limit=500&continue=next", 500,
               FakeClient::status(500, "InternalError", "etcd"));
  h.client->on_not_found(pending_paths::kPodGroups);
  h.client->on_get(pending_paths::kNodes, FakeClient::list(busy_nodes()));
  h.client->on_get(pending_paths::kPods, FakeClient::list(busy_pods()));
  // The queue is then read on its own.
  queue_stubs::stub_no_queues_alone(*h.client);
  std::vector<std::string> logged;
  trainctl::log::set_sink([&](std::string_view l) { logged.emplace_back(l); });
  h.run({"get", "mpi-pending"});
  trainctl::log::reset_sink();
  CHECK(h.out().find("Status:      PENDING\n") != std::string::npos);
  CHECK(h.out().find("Pending:") == std::string::npos);
  REQUIRE(logged.size() == 1);
  CHECK(logged[0].find("cannot tell why the job is pending") != std::string::npos);
  CHECK_NOTHROW(h.client->verify());
}

TEST_CASE("get of a finished job prints EndTime = CreateTime + Duration") {
  Harness h;
  stub_job(*h.client, 0, "pytorch-git", scenario::pytorch_git(),
           scenario::concat(scenario::pytorch_git_pods()));
  stub_tensorboard(*h.client, "pytorch-git", json::array());
  h.run({"get", "pytorch-git"});
  CHECK(h.out().find("Status:      SUCCEEDED\n") != std::string::npos);
  CHECK(
      h.out().find("Duration:    5m\nCreateTime:  2024-05-01 09:14:00\nEndTime:     2024-05-01 09:19:50\n") !=
      std::string::npos);
  CHECK(h.out().find("Completed") != std::string::npos);
  CHECK(h.out().find("tensorboard") == std::string::npos);
}

TEST_CASE("get -e adds the events of the job's pods, oldest first") {
  Harness h;
  stub_mpi_pending(*h.client);
  auto event = [](const std::string& pod, const std::string& type, const std::string& reason,
                  const std::string& msg, const std::string& at) {
    return json{{"involvedObject", {{"kind", "Pod"}, {"name", pod}}},
                {"type", type},
                {"reason", reason},
                {"message", msg},
                {"lastTimestamp", at}};
  };
  h.client->on_get(
      "/api/v1/namespaces/default/events?limit=100",
      trainctl::testing::FakeClient::list(json::array(
          {event("mpi-pending-worker-0", "Warning", "FailedScheduling",
                 "0/3 nodes are available: 3 Insufficient nvidia.com/gpu.", "2024-05-01T09:58:00Z"),
           event("other-pod", "Normal", "Pulled", "pulled", "2024-05-01T09:57:00Z"),
           event("mpi-pending-launcher-x7r2n", "Normal", "Scheduled", "assigned", "2024-05-01T09:55:00Z")})));
  stub_pending(*h.client, json::array({failed_scheduling("mpi-pending-worker-0", "2024-05-01T09:58:00Z")}),
               busy_nodes(), busy_pods());
  h.run({"get", "mpi-pending", "-e"});
  const std::string events =
      "\nEvents:\n"
      "SOURCE                          TYPE     AGE  MESSAGE\n"
      "------                          ----     ---  -------\n"
      "pod/mpi-pending-launcher-x7r2n  Normal   5m   [Scheduled] assigned\n"
      "pod/mpi-pending-worker-0        Warning  2m   [FailedScheduling] 0/3 nodes are available: 3 "
      "Insufficient nvidia.com/gpu.\n";
  const std::string out = h.out();
  REQUIRE(out.size() > events.size());
  CHECK(out.substr(out.size() - events.size()) == events);
  CHECK(out.find("Status:      PENDING\n") != std::string::npos);
  // The explanation stands before the events.
  const auto pending = out.find(
      "\nPending:     Unschedulable: 2 pods: 0/3 nodes are available: 3 Insufficient "
      "nvidia.com/gpu.\n");
  REQUIRE(pending != std::string::npos);
  CHECK(pending < out.find("\nEvents:\n"));
  CHECK_NOTHROW(h.client->verify());
}

TEST_CASE("get of a missing job is a NotFoundError naming job and namespace") {
  Harness h;
  for (int k = 0; k < kKinds; ++k) {
    h.client->on_not_found(job_path(k, "nope"));
    h.client->on_get(pods_path(k, "nope"), trainctl::testing::FakeClient::list(json::array()));
  }
  h.client->on_get(paths::kLegacyPods, trainctl::testing::FakeClient::list(json::array()));
  stub_tensorboard(*h.client, "nope", json::array());
  try {
    h.run({"get", "nope"});
    FAIL("no error");
  } catch (const trainctl::NotFoundError& e) {
    CHECK(std::string(e.what()) == "job nope not found in namespace default");
    CHECK(e.code() == trainctl::ExitCode::NotFound);
  }
}

TEST_CASE("get of a name used by two kinds asks for -T and names the kinds") {
  Harness h;
  auto& c = *h.client;
  c.on_get(job_path(0, "mnist"), pytorchjob("mnist", "2024-05-01T09:00:00Z", 1, 1));
  c.on_get(job_path(1, "mnist"), mpijob("mnist", "2024-05-01T09:00:00Z", 1, 1));
  c.on_not_found(job_path(2, "mnist"));
  c.on_not_found(job_path(4, "mnist"));
  c.on_not_found(job_path(5, "mnist"));
  // A plain batch Job of that name (no trainctl labels) is not a training job.
  c.on_get(job_path(3, "mnist"), json{{"metadata", {{"name", "mnist"}, {"namespace", "default"}}}});
  for (int k : {0, 2, 3, 5})  // kinds 0, 1 and 4 share one pod list
    c.on_get(pods_path(k, "mnist"), trainctl::testing::FakeClient::list(json::array()));
  c.on_get(paths::kLegacyPods, trainctl::testing::FakeClient::list(json::array()));
  stub_tensorboard(c, "mnist", json::array());
  CHECK_THROWS_WITH(h.run({"get", "mnist"}), Catch::Contains("pytorchjob, mpijob") && Catch::Contains("-T"));
}

TEST_CASE("get -o json adds events with -e; -o yaml works") {
  Harness h;
  stub_job(*h.client, 2, "vj", scenario::vj(), scenario::concat(scenario::vj_pods()));
  stub_tensorboard(*h.client, "vj", json::array());
  h.run({"get", "vj", "-o", "json"});
  auto j = json::parse(h.out());
  CHECK(j["kind"] == "Job");
  CHECK(j["apiVersion"] == "batch.volcano.sh/v1alpha1");
  CHECK(j["trainer"] == "volcanojob");
  CHECK(j["chiefName"] == "vj-pserver-0");
  CHECK(j["instances"].size() == 3);
  CHECK_FALSE(j.contains("events"));
}

TEST_CASE("get -g adds Arena's GPUs table (metrics N/A without Prometheus) before the TensorBoard URL") {
  Harness h;
  const std::string name = "pytorch-topo-4-vgg16";
  json status = {{"startTime", "2024-05-01T09:59:50Z"},
                 {"conditions", json::array({condition("Running", "True", "2024-05-01T09:59:50Z", "MPIJobRunning")})}};
  const std::string node = "cn-shanghai.192.168.16.173";
  json pods = json::array({pod(name + "-worker-0", mpi_labels(name, "worker"), "Running", 1, node)});
  stub_job(*h.client, 1, name, mpijob(name, "2024-05-01T09:59:49Z", 1, 1, status), pods, true);
  stub_tensorboard(*h.client, name, json::array());
  h.run({"get", name, "--type", "mpijob", "-g"});
  const std::string out = h.out();
  const auto at = out.find("\nGPUs:\n");
  REQUIRE(at != std::string::npos);
  CHECK(out.substr(at) ==
        "\nGPUs:\n"
        "INSTANCE                       NODE(IP)      GPU(Requested)  GPU(IndexId)  GPU(DutyCycle)  GPU Memory(Used/Total)\n"
        "pytorch-topo-4-vgg16-worker-0  192.168.0.33  1               N/A           N/A             N/A\n"
        "\n"
        "Allocated/Requested GPUs of Job: 1/1\n");
  CHECK(h.err() == "GPU metrics unavailable: no Prometheus found in the cluster\n");
}
