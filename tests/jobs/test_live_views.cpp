// The stores behind top node -r, top job -r and list -w: what a watch event does to them, as
// the one-shot reads compute the same figures.
#include <catch2/catch.hpp>
#include <map>
#include <random>

#include "job_fixtures.h"
#include "jobs/job_list_live.h"
#include "jobs/job_query.h"
#include "jobs/node_usage_live.h"

using nlohmann::json;
using namespace trainctl::jobs;

namespace {

json live_gpu_node(const std::string& name, int gpus) {
  return {{"metadata", {{"name", name}}},
          {"status",
           {{"capacity", {{"nvidia.com/gpu", std::to_string(gpus)}}},
            {"allocatable", {{"nvidia.com/gpu", std::to_string(gpus)}}},
            {"conditions", json::array({{{"type", "Ready"}, {"status", "True"}}})}}}};
}

json live_gpu_pod(const std::string& name, const std::string& node, int gpus, const std::string& phase) {
  return {{"metadata", {{"name", name}, {"namespace", "default"}, {"creationTimestamp", "2024-05-01T09:00:00Z"}}},
          {"spec",
           {{"nodeName", node},
            {"containers", json::array({{{"resources", {{"limits", {{"nvidia.com/gpu", std::to_string(gpus)}}}}}}})}}},
          {"status", {{"phase", phase}}}};
}

TimePoint at(const char* t) { return *parse_time(t); }

}  // namespace

TEST_CASE("LiveNodeUsage: a pod's claim comes and goes with its events; a relist starts afresh") {
  LiveNodeUsage live(false, {});
  auto c = live.collections();
  REQUIRE(c.size() == 2);
  CHECK(c[0].path == "/api/v1/nodes");
  CHECK(c[1].query.field_selector == "status.phase!=Failed,status.phase!=Succeeded");
  json a = live_gpu_node("a", 8), b = live_gpu_node("b", 4);
  c[0].on_put(a);
  c[0].on_put(b);
  json p = live_gpu_pod("p", "a", 2, "Running"), q = live_gpu_pod("q", "a", 3, "Running");
  c[1].on_put(p);
  c[1].on_put(q);
  auto s = live.snapshot();
  REQUIRE(s.size() == 2);
  CHECK(s[0].allocated == 5);
  CHECK(s[1].allocated == 0);
  // The same pod again (MODIFIED) does not count twice; one that succeeded claims nothing.
  c[1].on_put(p);
  CHECK(live.snapshot()[0].allocated == 5);
  json done = live_gpu_pod("q", "a", 3, "Succeeded");
  c[1].on_put(done);
  CHECK(live.snapshot()[0].allocated == 2);
  c[1].on_delete(p);
  CHECK(live.snapshot()[0].allocated == 0);
  // A deleted node goes; a relist of the pods forgets every claim first.
  c[0].on_delete(b);
  CHECK(live.snapshot().size() == 1);
  c[1].on_put(p);
  c[1].on_reset();
  CHECK(live.snapshot()[0].allocated == 0);
}

TEST_CASE("LiveNodeUsage: the snapshot equals node_usage() of the same objects") {
  const std::vector<json> nodes = {live_gpu_node("n1", 8), live_gpu_node("n2", 8)};
  // In the order of a list (namespace, name), as kube-apiserver sends it; the watch events
  // come in any order.
  const std::vector<json> pods = {live_gpu_pod("a", "n1", 2, "Pending"), live_gpu_pod("m", "n2", 4, "Running"),
                                  live_gpu_pod("z", "n1", 1, "Running")};
  LiveNodeUsage live(true, {});
  auto c = live.collections();
  for (auto n : nodes) c[0].on_put(n);
  for (auto it = pods.rbegin(); it != pods.rend(); ++it) {
    json p = *it;
    c[1].on_put(p);
  }
  const auto want = node_usage(nodes, pods);
  const auto got = live.snapshot();
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) CHECK(got[i].to_json() == want[i].to_json());
}

TEST_CASE("LiveNodeUsage: sums kept by event equal node_usage() of the pods left, after any events") {
  const std::vector<json> nodes = {live_gpu_node("n1", 8), live_gpu_node("n2", 8), live_gpu_node("n3", 4)};
  const char* node_names[] = {"", "n1", "n2", "n3"};
  const char* phases[] = {"Pending", "Running", "Running", "Succeeded", "Failed"};
  for (bool keep_pods : {false, true}) {
    LiveNodeUsage live(keep_pods, {});
    auto c = live.collections();
    for (auto n : nodes) c[0].on_put(n);
    std::map<std::string, json> left;  // the pods as the last event left them
    std::mt19937 random(7);
    for (int event = 0; event < 600; ++event) {
      const std::string name = "p" + std::to_string(random() % 24);
      if (random() % 5 == 0) {
        auto it = left.find(name);
        if (it == left.end()) continue;
        c[1].on_delete(it->second);
        left.erase(it);
      } else {
        json p = live_gpu_pod(name, node_names[random() % 4], int(random() % 3), phases[random() % 5]);
        left[name] = p;
        c[1].on_put(p);
      }
      if (event % 50 == 49) {
        std::vector<json> pods;
        for (const auto& [n, p] : left) pods.push_back(p);
        const auto want = node_usage(nodes, pods);
        const auto got = live.snapshot();
        REQUIRE(got.size() == want.size());
        for (size_t i = 0; i < got.size(); ++i) {
          CHECK(got[i].allocated == want[i].allocated);
          if (keep_pods) CHECK(got[i].to_json() == want[i].to_json());
        }
      }
    }
  }
}

TEST_CASE("LiveJobs: jobs and their pods meet in either order; changes and deletions are reported once") {
  LiveJobs live("", kinds_for_type("pytorchjob"), false);
  auto c = live.collections();
  // One collection per kind (PyTorchJob, operator-free PyTorch), one per pod job-name label.
  REQUIRE(c.size() == 4);
  json w0 = pod("train-worker-0", pytorch_labels("train", "worker", 0), "Running", 1, "node-1");
  c[2].on_put(w0);  // the pod first: no job yet, nothing to report
  CHECK(live.take_changes(at("2024-05-01T10:00:00Z")).empty());
  json job = pytorchjob("train", "2024-05-01T09:50:00Z", 2, 1);
  c[0].on_put(job);
  json m0 = pod("train-master-0", pytorch_labels("train", "master", 0), "Running", 1, "node-1");
  c[2].on_put(m0);
  auto changes = live.take_changes(at("2024-05-01T10:00:00Z"));
  REQUIRE(changes.size() == 1);
  CHECK(changes[0].job.name == "train");
  CHECK_FALSE(changes[0].deleted);
  CHECK(changes[0].job.gpus_allocated == 2);
  CHECK(live.take_changes(at("2024-05-01T10:00:00Z")).empty());
  // A pod that goes leaves the job's figures.
  c[2].on_delete(w0);
  changes = live.take_changes(at("2024-05-01T10:00:00Z"));
  REQUIRE(changes.size() == 1);
  CHECK(changes[0].job.gpus_allocated == 1);
  const auto list = live.snapshot(at("2024-05-01T10:00:00Z"));
  REQUIRE(list.size() == 1);
  // The job deleted: reported once, as it was last.
  c[0].on_delete(job);
  changes = live.take_changes(at("2024-05-01T10:00:00Z"));
  REQUIRE(changes.size() == 1);
  CHECK(changes[0].deleted);
  CHECK(changes[0].job.name == "train");
  CHECK(live.snapshot(at("2024-05-01T10:00:00Z")).empty());
}
