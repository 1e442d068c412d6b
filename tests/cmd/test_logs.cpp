#include <catch2/catch.hpp>

#include <sstream>

#include "cmd_harness.h"
#include "core/errors.h"
#include "get_stubs.h"
#include "jobs/logs/pod_logs.h"
#include "print/error_text.h"
#include "scenario.h"

using namespace get_stubs;
using namespace fixtures;

namespace {
const std::string kMasterLog = "/api/v1/namespaces/default/pods/pytorch-dist-master-0/log";

void stub_dist(FakeClient& c) {
  stub_job(c, 0, "pytorch-dist", scenario::pytorch_dist(), scenario::concat(scenario::pytorch_dist_pods()));
}
}  // namespace

TEST_CASE("logs prints the chief instance's log by default") {
  Harness h;
  stub_dist(*h.client);
  // A log is streamed as it comes, never held whole.
  h.client->on_stream(kMasterLog, {"WORLD_SIZE: 3, CURRENT_RANK: 0", "accuracy=0.9904"});
  h.run({"logs", "pytorch-dist"});
  CHECK(h.out() == "WORLD_SIZE: 3, CURRENT_RANK: 0\naccuracy=0.9904\n");
  CHECK_NOTHROW(h.client->verify());
}

TEST_CASE("logs -i picks an instance; -t and --timestamps reach the server") {
  Harness h;
  stub_dist(*h.client);
  h.client->on_stream("/api/v1/namespaces/default/pods/pytorch-dist-worker-0/log?timestamps=true&tailLines=5",
                      {"2024-05-01T09:59:59Z Train Epoch: 10"});
  h.run({"logs", "pytorch-dist", "-i", "pytorch-dist-worker-0", "-t", "5", "--timestamps"});
  CHECK(h.out() == "2024-05-01T09:59:59Z Train Epoch: 10\n");
  CHECK_NOTHROW(h.client->verify());
}

TEST_CASE("logs --since and --since-time") {
  Harness h;
  stub_dist(*h.client);
  h.client->on_stream(kMasterLog + "?sinceSeconds=300", {"x"});
  h.run({"logs", "pytorch-dist", "--since", "5m"});
  CHECK(h.out() == "x\n");

  Harness h2;
  stub_dist(*h2.client);
  h2.client->on_stream(kMasterLog + "?sinceTime=2024-05-01T09%3A00%3A00Z", {"y"});
  h2.run({"logs", "pytorch-dist", "--since-time", "2024-05-01T09:00:00Z"});
  CHECK(h2.out() == "y\n");

  Harness h3;
  CHECK_THROWS_AS(h3.run({"logs", "a", "--since", "5m", "--since-time", "2024-05-01T09:00:00Z"}),
                  trainctl::UsageError);
  CHECK_THROWS_AS(h3.run({"logs", "a", "--since-time", "yesterday"}), trainctl::UsageError);
  CHECK(h3.client->requests().empty());
}

TEST_CASE("logs -i with a wrong instance lists the instances") {
  Harness h;
  stub_dist(*h.client);
  try {
    h.run({"logs", "pytorch-dist", "-i", "pytorch-dist-worker-9"});
    FAIL("no error");
  } catch (const trainctl::NotFoundError& e) {
    // The pods are named after their replicas: the names alone.
    CHECK(e.lines() == std::vector<std::string>{"pytorch-dist-master-0 (chief)", "pytorch-dist-worker-0",
                                                "pytorch-dist-worker-1"});
  }
}

namespace {
// The operator-free job "bad": an Indexed Job's pods NAME-INDEX-<random>, completion index 0
// the master (rank 0), index i worker i-1.
void stub_bad(FakeClient& c) {
  json pods = json::array();
  const char* names[] = {"bad-0-dmrq9", "bad-1-hrhts", "bad-2-k4xzp"};
  for (int i = 0; i < 3; ++i) pods.push_back(pod(names[i], batch_labels("bad", i), "Running", 1, "node-1"));
  stub_job(c, 3, "bad", batchjob("bad", "2024-05-01T09:00:00Z", {{"active", 3}}), pods);
}
}  // namespace

TEST_CASE("logs -i takes the start of a pod's name, the replica logs --all names, or a rank") {
  for (const auto& [wanted, pod_name] : std::vector<std::pair<std::string, std::string>>{
           {"bad-1", "bad-1-hrhts"},     // the start of the name, without its random suffix
           {"worker-1", "bad-2-k4xzp"},  // the replica, as logs --all prefixes its lines
           {"Worker-1", "bad-2-k4xzp"},  // roles are compared as --role compares them
           {"1", "bad-2-k4xzp"},         // the rank, as --rank counts it (worker-1 has rank 1)
           {"bad-0-dmrq9", "bad-0-dmrq9"}}) {
    INFO("-i " << wanted);
    Harness h;
    stub_bad(*h.client);
    h.client->on_stream("/api/v1/namespaces/default/pods/" + pod_name + "/log", {pod_name + " says hi"});
    h.run({"logs", "bad", "-i", wanted});
    CHECK(h.out() == pod_name + " says hi\n");
    CHECK_NOTHROW(h.client->verify());
  }
}

TEST_CASE("logs -i that names several instances, or none, lists them as lines of the error") {
  Harness h;
  stub_bad(*h.client);
  try {
    h.run({"logs", "bad", "-i", "0"});  // master-0 and worker-0
    FAIL("no error");
  } catch (const trainctl::UsageError& e) {
    CHECK(e.message() == "-i 0 matches 2 instances of job bad; choose one of:");
    CHECK(e.lines() == std::vector<std::string>{"bad-0-dmrq9  master-0 (chief)", "bad-1-hrhts  worker-0"});
  }
  Harness h2;
  stub_bad(*h2.client);
  CHECK_THROWS_AS(h2.run({"logs", "bad", "-i", "bad-"}), trainctl::UsageError);
  Harness h3;
  stub_bad(*h3.client);
  try {
    h3.run({"logs", "bad", "-i", "bad-7"});
    FAIL("no error");
  } catch (const trainctl::NotFoundError& e) {
    CHECK(e.message() == "job bad has no instance bad-7; its instances are:");
    CHECK(e.lines() == std::vector<std::string>{"bad-0-dmrq9  master-0 (chief)", "bad-1-hrhts  worker-0",
                                                "bad-2-k4xzp  worker-1"});
    // As main prints it: one line each, no line break escaped.
    CHECK(trainctl::print::error_text(e) ==
          "error: job bad has no instance bad-7; its instances are:\n"
          "  bad-0-dmrq9  master-0 (chief)\n"
          "  bad-1-hrhts  worker-0\n"
          "  bad-2-k4xzp  worker-1\n");
  }
}

TEST_CASE("top job -i takes an instance as logs -i does") {
  Harness h;
  stub_bad(*h.client);
  h.run({"top", "job", "bad", "-i", "worker-0", "-o", "json"});
  const auto doc = json::parse(h.out());
  REQUIRE(doc["instances"].size() == 1);
  CHECK(doc["instances"][0]["name"] == "bad-1-hrhts");
}

TEST_CASE("logs of a job without a chief and several instances asks for -i") {
  Harness h;
  json p0 = pod("b-0-x", batch_labels("b", 0), "Running", 1, "node-1");
  json p1 = pod("b-1-y", batch_labels("b", 1), "Running", 1, "node-2");
  p0["metadata"]["labels"].erase("batch.kubernetes.io/job-completion-index");
  p1["metadata"]["labels"].erase("batch.kubernetes.io/job-completion-index");
  stub_job(*h.client, 3, "b", batchjob("b", "2024-05-01T09:00:00Z", {{"active", 2}}), json::array({p0, p1}));
  CHECK_THROWS_WITH(h.run({"logs", "b"}),
                    Catch::Contains("-i") && Catch::Contains("b-0-x") && Catch::Contains("b-1-y"));
}

TEST_CASE("logs of an instance in Init reads the init-code container") {
  Harness h;
  json p = pod("a-master-0", pytorch_labels("a", "master", 0), "Pending", 1, "node-1");
  p["spec"]["initContainers"] = json::array({{{"name", "init-code"}, {"image", "git-sync"}}});
  p["status"]["initContainerStatuses"] =
      json::array({{{"name", "init-code"}, {"state", {{"running", json::object()}}}}});
  stub_job(*h.client, 0, "a", pytorchjob("a", "2024-05-01T09:00:00Z", 1, 1), json::array({p}));
  h.client->on_stream("/api/v1/namespaces/default/pods/a-master-0/log?container=init-code", {"cloning"});
  h.run({"logs", "a"});
  CHECK(h.out() == "cloning\n");
  CHECK_NOTHROW(h.client->verify());
}

TEST_CASE("logs -f resumes a cut stream without losing or doubling lines, and ends with the pod") {
  Harness h;
  stub_dist(*h.client);
  auto& c = *h.client;
  c.on_stream(kMasterLog + "?follow=true&timestamps=true",
              {"2024-05-01T09:59:58.100000000Z epoch 1", "2024-05-01T09:59:58.900000000Z epoch 2"},
              /*cut=*/true);
  json running =
      pod("pytorch-dist-master-0", pytorch_labels("pytorch-dist", "master", 0), "Running", 1, "node-1");
  c.on_get("/api/v1/namespaces/default/pods/pytorch-dist-master-0", running);
  // Resumed from the last line's second: the server repeats both lines of 09:59:58.
  c.on_stream(kMasterLog + "?follow=true&timestamps=true&sinceTime=2024-05-01T09%3A59%3A58Z",
              {"2024-05-01T09:59:58.100000000Z epoch 1", "2024-05-01T09:59:58.900000000Z epoch 2",
               "2024-05-01T09:59:59.500000000Z epoch 3", "2024-05-01T09:59:59.600000000Z done"});
  json succeeded =
      pod("pytorch-dist-master-0", pytorch_labels("pytorch-dist", "master", 0), "Succeeded", 1, "node-1");
  c.on_get("/api/v1/namespaces/default/pods/pytorch-dist-master-0", succeeded);
  h.run({"logs", "-f", "pytorch-dist", "--reconnect-delay", "0s"});
  CHECK(h.out() == "epoch 1\nepoch 2\nepoch 3\ndone\n");
  CHECK_NOTHROW(c.verify());
}

TEST_CASE("logs -f keeps timestamps when asked, and exits with JobFailed when the pod failed") {
  Harness h;
  stub_dist(*h.client);
  auto& c = *h.client;
  c.on_stream(kMasterLog + "?follow=true&timestamps=true&tailLines=1", {"2024-05-01T09:59:58Z Traceback"});
  json failed =
      pod("pytorch-dist-master-0", pytorch_labels("pytorch-dist", "master", 0), "Failed", 1, "node-1");
  c.on_get("/api/v1/namespaces/default/pods/pytorch-dist-master-0", failed);
  try {
    h.run({"logs", "-f", "pytorch-dist", "--timestamps", "-t", "1", "--reconnect-delay", "0s"});
    FAIL("no error");
  } catch (const trainctl::Error& e) {
    CHECK(e.code() == trainctl::ExitCode::JobFailed);
  }
  CHECK(h.out() == "2024-05-01T09:59:58Z Traceback\n");
  CHECK_NOTHROW(c.verify());
}

TEST_CASE("logs -f follows a container restart and reads what was written while the stream was down") {
  Harness h;
  stub_dist(*h.client);
  auto& c = *h.client;
  const std::string pod_path = "/api/v1/namespaces/default/pods/pytorch-dist-master-0";
  json running =
      pod("pytorch-dist-master-0", pytorch_labels("pytorch-dist", "master", 0), "Running", 1, "node-1");
  // First container: the stream ends when it exits; the pod restarts it.
  c.on_stream(kMasterLog + "?follow=true&timestamps=true",
              {"2024-05-01T09:59:50Z start", "2024-05-01T09:59:51Z crash"});
  c.on_get(pod_path, running);
  // Second container: cut mid-way, and the pod ends before the next connection.
  c.on_stream(kMasterLog + "?follow=true&timestamps=true&sinceTime=2024-05-01T09%3A59%3A51Z",
              {"2024-05-01T09:59:51Z crash", "2024-05-01T09:59:55Z start again"}, /*cut=*/true);
  json done =
      pod("pytorch-dist-master-0", pytorch_labels("pytorch-dist", "master", 0), "Succeeded", 1, "node-1");
  c.on_get(pod_path, done);
  c.on_stream(kMasterLog + "?timestamps=true&sinceTime=2024-05-01T09%3A59%3A55Z",
              {"2024-05-01T09:59:55Z start again", "2024-05-01T09:59:56Z finished"});
  h.run({"logs", "-f", "pytorch-dist", "--reconnect-delay", "0s"});
  CHECK(h.out() == "start\ncrash\nstart again\nfinished\n");
  CHECK_NOTHROW(c.verify());
}

TEST_CASE("logs -f waits for a Pending instance instead of giving up") {
  Harness h;
  stub_dist(*h.client);
  auto& c = *h.client;
  const std::string pod_path = "/api/v1/namespaces/default/pods/pytorch-dist-master-0";
  json pending = pod("pytorch-dist-master-0", pytorch_labels("pytorch-dist", "master", 0), "Pending", 1);
  json waiting = {
      {"kind", "Status"},
      {"code", 400},
      {"reason", "BadRequest"},
      {"message",
       "container \"pytorch\" in pod \"pytorch-dist-master-0\" is waiting to start: ContainerCreating"}};
  // More refusals than max_failures (10): a Pending pod does not count against it.
  for (int i = 0; i < 12; ++i) {
    c.on("STREAM", kMasterLog + "?follow=true&timestamps=true", 400, waiting);
    c.on_get(pod_path, pending);
  }
  c.on_stream(kMasterLog + "?follow=true&timestamps=true", {"2024-05-01T09:59:59Z hello"});
  c.on_get(pod_path, pod("pytorch-dist-master-0", pytorch_labels("pytorch-dist", "master", 0), "Succeeded", 1,
                         "node-1"));
  h.run({"logs", "-f", "pytorch-dist", "--reconnect-delay", "0s"});
  CHECK(h.out() == "hello\n");
  CHECK_NOTHROW(c.verify());
}

TEST_CASE("logs -f gives up after repeated cuts of a running instance") {
  Harness h;
  stub_dist(*h.client);
  auto& c = *h.client;
  json running =
      pod("pytorch-dist-master-0", pytorch_labels("pytorch-dist", "master", 0), "Running", 1, "node-1");
  for (int i = 0; i < 11; ++i) {
    c.on_stream(kMasterLog + "?follow=true&timestamps=true", {}, /*cut=*/true);
    c.on_get("/api/v1/namespaces/default/pods/pytorch-dist-master-0", running);
  }
  CHECK_THROWS_AS(h.run({"logs", "-f", "pytorch-dist", "--reconnect-delay", "0s"}), trainctl::TransportError);
  CHECK_NOTHROW(c.verify());
}

namespace {

// A FakeClient whose log streams arrive as one block of all their lines, the way a fast
// server's chunks reach the real client.
class BlockClient : public trainctl::testing::FakeClient {
 public:
  void stream_blocks(const trainctl::kube::Request& request, const trainctl::kube::BlockHandler& on_block) override {
    std::string block;
    try {
      stream(request, [&](std::string_view line) {
        block.append(line);
        block += '\n';
        return true;
      });
    } catch (const trainctl::TransportError&) {
      if (!block.empty()) on_block(block);
      throw;
    }
    if (!block.empty()) on_block(block);
  }
};

// Counts the flushes of what is written to it.
class CountingBuf : public std::stringbuf {
 public:
  int syncs = 0;

 protected:
  int sync() override {
    ++syncs;
    return std::stringbuf::sync();
  }
};

}  // namespace

TEST_CASE("logs -f drops the lines a resumed block repeats and writes held lines when a stream ends") {
  BlockClient c;
  const std::string pod_path = "/api/v1/namespaces/default/pods/pytorch-dist-master-0";
  c.on_stream(kMasterLog + "?follow=true&timestamps=true",
              {"2024-05-01T09:59:57.500000000Z epoch 0", "2024-05-01T09:59:58.100000000Z epoch 1",
               "2024-05-01T09:59:58.900000000Z epoch 2"},
              /*cut=*/true);
  c.on_get(pod_path, pod("pytorch-dist-master-0", pytorch_labels("pytorch-dist", "master", 0), "Running", 1, "node-1"));
  c.on_stream(kMasterLog + "?follow=true&timestamps=true&sinceTime=2024-05-01T09%3A59%3A58Z",
              {"2024-05-01T09:59:58.100000000Z epoch 1", "2024-05-01T09:59:58.900000000Z epoch 2",
               "2024-05-01T09:59:59.500000000Z epoch 3", "2024-05-01T09:59:59.600000000Z done"});
  c.on_get(pod_path,
           pod("pytorch-dist-master-0", pytorch_labels("pytorch-dist", "master", 0), "Succeeded", 1, "node-1"));
  CountingBuf buf;
  std::ostream out(&buf);
  trainctl::jobs::LogOptions o;
  o.ns = "default";
  o.pod = "pytorch-dist-master-0";
  trainctl::jobs::FollowSettings s;
  s.sleep = [](std::chrono::milliseconds) {};
  CHECK(trainctl::jobs::follow_logs(c, o, out, s) == "Succeeded");
  CHECK(buf.str() == "epoch 0\nepoch 1\nepoch 2\nepoch 3\ndone\n");
  CHECK(buf.syncs == 2);  // one per stream (no quiet signal came), none per line
  CHECK_NOTHROW(c.verify());
}
