// The stores behind top node -r, top job -r and list -w: what a watch event does to them, as
// the one-shot reads compute the same figures.
#include <catch2/catch.hpp>
#include <map>
#include <random>

#include "job_fixtures.h"
#include "jobs/job_list_live.h"
#include "jobs/job_query.h"
#include "jobs/cluster/node_usage_live.h"
#include "support/fake_client.h"

using nlohmann::json;
using namespace trainctl::jobs;
using trainctl::testing::FakeClient;

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

namespace {

// A node whose GPU resource changes with `mode`: 0 none, 1 nvidia.com/gpu, 2 Share
// (aliyun.com/gpu-count), 3 Topology (aliyun.com/gpu).
json mode_node(const std::string& name, int mode, int gpus) {
  json n = live_gpu_node(name, gpus);
  auto& alloc = n["status"]["allocatable"];
  auto& cap = n["status"]["capacity"];
  if (mode == 0) {
    alloc = json::object();
    cap = json::object();
  } else if (mode == 2) {
    alloc["aliyun.com/gpu-mem"] = "64";
    cap["aliyun.com/gpu-count"] = std::to_string(gpus);
  } else if (mode == 3) {
    n["metadata"]["labels"] = {{"ack.node.gpu.schedule", "topology"}};
    cap["aliyun.com/gpu"] = std::to_string(gpus);
    alloc["aliyun.com/gpu"] = std::to_string(gpus);
  }
  return n;
}

// A pod asking for some of the three GPU resources, in two containers.
json mixed_pod(const std::string& name, const std::string& node, int nvidia, int aliyun, int count,
               const std::string& phase) {
  json p = live_gpu_pod(name, node, nvidia, phase);
  p["spec"]["containers"].push_back(
      {{"resources", {{"limits", {{"aliyun.com/gpu", std::to_string(aliyun)}, {"aliyun.com/gpu-count", std::to_string(count)}}}}}});
  return p;
}

// The snapshot against a fresh sum of the same objects (node_usage(), which read_node_usage's
// builder computes), node by node.
void check_against_fresh_sum(const LiveNodeUsage& live, const std::map<std::string, json>& nodes,
                             const std::map<std::string, json>& pods, bool keep_pods,
                             const std::vector<std::string>& only) {
  std::vector<json> node_list, pod_list;
  for (const auto& [n, node] : nodes) node_list.push_back(node);
  for (const auto& [n, pod] : pods) pod_list.push_back(pod);
  NodeUsageBuilder fresh(keep_pods, only);
  for (const auto& n : node_list) fresh.add_node(n);
  for (const auto& p : pod_list) fresh.add_pod(p);
  const auto want = fresh.finish();
  const auto got = live.snapshot();
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) CHECK(got[i].to_json() == want[i].to_json());
}

}  // namespace

TEST_CASE("LiveNodeUsage: a table of events leaves the sums a fresh sum of what is left gives") {
  struct Step {
    const char* what;
    char collection;  // 'n' node, 'p' pod, 'N' relist of the nodes, 'P' relist of the pods
    bool put;         // put (ADDED or MODIFIED), else DELETED
    json object;
  };
  const std::vector<Step> steps = {
      {"a GPU node", 'n', true, mode_node("n1", 1, 8)},
      {"a pod bound to it", 'p', true, mixed_pod("a", "n1", 2, 0, 0, "Running")},
      {"a pod not scheduled yet claims nothing", 'p', true, mixed_pod("b", "", 4, 0, 0, "Pending")},
      {"the pod bound", 'p', true, mixed_pod("b", "n1", 4, 0, 0, "Pending")},
      {"its limits changed (the new claim replaces the old)", 'p', true, mixed_pod("b", "n1", 3, 1, 0, "Running")},
      {"a pod on a node not read yet", 'p', true, mixed_pod("c", "n2", 1, 2, 5, "Running")},
      {"that node comes, sharing its GPUs", 'n', true, mode_node("n2", 2, 8)},
      {"it turns topology-aware: another resource counts", 'n', true, mode_node("n2", 3, 4)},
      {"a pod that succeeded claims nothing", 'p', true, mixed_pod("a", "n1", 2, 0, 0, "Succeeded")},
      {"the same pod again", 'p', true, mixed_pod("a", "n1", 2, 0, 0, "Succeeded")},
      {"a pod deleted", 'p', false, mixed_pod("b", "n1", 3, 1, 0, "Running")},
      {"a pod deleted twice", 'p', false, mixed_pod("b", "n1", 3, 1, 0, "Running")},
      {"a node deleted keeps its pods' claims", 'n', false, mode_node("n2", 3, 4)},
      {"and comes back without GPUs", 'n', true, mode_node("n2", 0, 0)},
      {"and with them", 'n', true, mode_node("n2", 3, 2)},
      {"the nodes listed again", 'N', true, json()},
      {"the pods listed again", 'P', true, json()},
      {"a pod moved to another node", 'p', true, mixed_pod("c", "n1", 1, 2, 5, "Running")},
      {"one asking for nothing", 'p', true, mixed_pod("d", "n1", 0, 0, 0, "Running")},
  };
  for (bool keep_pods : {false, true})
    for (const std::vector<std::string>& only : {std::vector<std::string>{}, std::vector<std::string>{"n2", "n3"}}) {
      CAPTURE(keep_pods, only);
      LiveNodeUsage live(keep_pods, only);
      auto c = live.collections();
      std::map<std::string, json> nodes, pods;  // as the events left them
      for (const auto& step : steps) {
        CAPTURE(step.what);
        json o = step.object;
        if (step.collection == 'N' || step.collection == 'P') {
          // A relist: forget, then every object of the collection again.
          auto& col = c[step.collection == 'N' ? 0 : 1];
          col.on_reset();
          for (const auto& [n, obj] : step.collection == 'N' ? nodes : pods) {
            json copy = obj;
            col.on_put(copy);
          }
        } else {
          auto& held = step.collection == 'n' ? nodes : pods;
          auto& col = c[step.collection == 'n' ? 0 : 1];
          const std::string name = o["metadata"]["name"];
          if (step.put) {
            held[name] = o;
            col.on_put(o);
          } else {
            held.erase(name);
            col.on_delete(o);
          }
        }
        check_against_fresh_sum(live, nodes, pods, keep_pods, only);
      }
    }
}

TEST_CASE("LiveNodeUsage: random events on nodes and pods, relists among them, match a fresh sum") {
  const char* node_names[] = {"", "n1", "n2", "n3", "n4"};
  const char* phases[] = {"Pending", "Running", "Running", "Succeeded", "Failed"};
  for (bool keep_pods : {false, true}) {
    CAPTURE(keep_pods);
    LiveNodeUsage live(keep_pods, {});
    auto c = live.collections();
    std::map<std::string, json> nodes, pods;
    std::mt19937 random(keep_pods ? 11 : 5);
    for (int event = 0; event < 2000; ++event) {
      const unsigned what = random() % 100;
      if (what < 10) {
        json n = mode_node(node_names[1 + random() % 4], int(random() % 4), int(random() % 9));
        nodes[n["metadata"]["name"]] = n;
        c[0].on_put(n);
      } else if (what < 13) {
        auto it = nodes.find(node_names[1 + random() % 4]);
        if (it == nodes.end()) continue;
        c[0].on_delete(it->second);
        nodes.erase(it);
      } else if (what < 15) {
        auto& col = c[what == 13 ? 0 : 1];
        col.on_reset();
        for (const auto& [n, obj] : what == 13 ? nodes : pods) {
          json copy = obj;
          col.on_put(copy);
        }
      } else if (what < 30) {
        auto it = pods.find("p" + std::to_string(random() % 40));
        if (it == pods.end()) continue;
        c[1].on_delete(it->second);
        pods.erase(it);
      } else {
        const std::string name = "p" + std::to_string(random() % 40);
        json p = mixed_pod(name, node_names[random() % 5], int(random() % 3), int(random() % 2), int(random() % 2),
                           phases[random() % 5]);
        pods[name] = p;
        c[1].on_put(p);
      }
      if (event % 100 == 99) check_against_fresh_sum(live, nodes, pods, keep_pods, {});
    }
  }
}

TEST_CASE("LiveJobs: jobs and their pods meet in either order; changes and deletions are reported once") {
  LiveJobs live("", kinds_for_type("pytorchjob"), false);
  auto c = live.collections();
  // One collection per kind (PyTorchJob, operator-free PyTorch), one per pod job-name label.
  REQUIRE(c.size() == 4);
  // The operator-free kind's pods leave out JobSet's and mpi-operator's, as list -A does.
  CHECK(c[3].query.label_selector == pods_list_selector(kinds_for_type("pytorchjob"), "job-name"));
  CHECK(c[3].query.label_selector != "job-name");
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

TEST_CASE("LiveJobs: a snapshot holds the changes so far, so the next take_changes starts after it") {
  LiveJobs live("", kinds_for_type("pytorchjob"), false);
  auto c = live.collections();
  json job = pytorchjob("train", "2024-05-01T09:50:00Z", 2, 1);
  c[0].on_put(job);
  json m0 = pod("train-master-0", pytorch_labels("train", "master", 0), "Running", 1, "node-1");
  c[2].on_put(m0);
  json gone = pytorchjob("gone", "2024-05-01T09:40:00Z", 1, 0);
  c[0].on_put(gone);
  c[0].on_delete(gone);
  const auto first = live.snapshot(at("2024-05-01T10:00:00Z"));
  REQUIRE(first.size() == 1);
  CHECK(first[0].gpus_allocated == 1);
  // list -w printed these: nothing is built again, the deletion before the view included.
  CHECK(live.take_changes(at("2024-05-01T10:00:00Z")).empty());
  json w0 = pod("train-worker-0", pytorch_labels("train", "worker", 0), "Running", 1, "node-1");
  c[2].on_put(w0);
  const auto changes = live.take_changes(at("2024-05-01T10:00:00Z"));
  REQUIRE(changes.size() == 1);
  CHECK(changes[0].job.gpus_allocated == 2);
}

namespace {

// A ClusterTrainingRuntime whose trainer job's container node asks for `gpus` GPUs
// (kubeflow/trainer@v2.3.0 manifests/base/runtimes/torch_distributed.yaml's shape).
json gpu_runtime(int gpus) {
  const json node = {{"name", "node"},
                     {"image", "pytorch/pytorch:2.13.0-cuda13.0-cudnn9-runtime"},
                     {"resources", {{"limits", {{"nvidia.com/gpu", gpus}}}}}};
  const json rjob = {{"name", "node"},
                     {"template",
                      {{"metadata", {{"labels", {{"trainer.kubeflow.org/trainjob-ancestor-step", "trainer"}}}}},
                       {"spec", {{"template", {{"spec", {{"containers", json::array({node})}}}}}}}}}};
  return {{"apiVersion", "trainer.kubeflow.org/v1alpha1"},
          {"kind", "ClusterTrainingRuntime"},
          {"spec",
           {{"mlPolicy", {{"numNodes", 1}, {"torch", json::object()}}},
            {"template", {{"spec", {{"replicatedJobs", json::array({rjob})}}}}}}}};
}

const TrainingJob* named(const JobList& jobs, const std::string& name) {
  for (const auto& j : jobs)
    if (j.name == name) return &j;
  return nullptr;
}

}  // namespace

TEST_CASE("LiveJobs: a TrainJob that names no GPU shows its runtime's, each runtime read once for the view's life") {
  const std::string runtimes = "/apis/trainer.kubeflow.org/v1alpha1/clustertrainingruntimes/";
  FakeClient client;
  client.on_get(runtimes + "two-gpus", gpu_runtime(2));
  client.on_not_found(runtimes + "gone");
  LiveJobs live("", kinds_for_type("trainjob"), false, &client);
  auto c = live.collections();
  REQUIRE(c.size() == 2);  // the TrainJobs, their pods
  json tune = trainjob("tune", "2024-05-01T09:50:00Z", "two-gpus", 3, 0);
  json gone = trainjob("gone", "2024-05-01T09:51:00Z", "gone", 2, 0);
  json own = trainjob("own", "2024-05-01T09:52:00Z", "two-gpus", 2, 1);  // names its GPUs: 1 x 2
  for (json* j : {&tune, &gone, &own}) c[0].on_put(*j);
  // The first view: both runtimes in one round; a runtime that is gone leaves the spec's 0.
  const auto first = live.snapshot(at("2024-05-01T10:00:00Z"));
  REQUIRE(first.size() == 3);
  CHECK(named(first, "tune")->gpus_requested == 6);
  CHECK(named(first, "gone")->gpus_requested == 0);
  CHECK(named(first, "own")->gpus_requested == 2);
  CHECK(client.batches() == std::vector<size_t>{2});
  live.take_changes(at("2024-05-01T10:00:00Z"));
  // A new job on a runtime read already, and the job on the missing one again: no GET.
  json more = trainjob("more", "2024-05-01T09:53:00Z", "two-gpus", 1, 0);
  c[0].on_put(more);
  c[0].on_put(gone);
  auto changes = live.take_changes(at("2024-05-01T10:00:00Z"));
  REQUIRE(changes.size() == 2);
  for (const auto& ch : changes) CHECK(ch.job.gpus_requested == (ch.job.name == "more" ? 2 : 0));
  CHECK(client.requests().size() == 2);
  // A job naming a runtime not read yet: read at the next refresh, in its own round. One whose
  // read got no answer (FakeClient throws for a request not stubbed, as a cut connection
  // would) waits and is read at the refresh after.
  json late = trainjob("late", "2024-05-01T09:54:00Z", "late", 2, 0);
  c[0].on_put(late);
  changes = live.take_changes(at("2024-05-01T10:00:00Z"));
  REQUIRE(changes.size() == 1);
  CHECK(changes[0].job.gpus_requested == 0);
  client.on_get(runtimes + "late", gpu_runtime(4));
  changes = live.take_changes(at("2024-05-01T10:00:00Z"));
  REQUIRE(changes.size() == 1);
  CHECK(changes[0].job.name == "late");
  CHECK(changes[0].job.gpus_requested == 8);
  CHECK(client.batches() == std::vector<size_t>{2, 1, 1});
  CHECK(live.take_changes(at("2024-05-01T10:00:00Z")).empty());
  client.verify();
  // Its pods decide once they exist, as in list.
  json p = pod("tune-node-0-0-abcde", trainjob_labels("tune", "node", 0), "Running", 1, "node-1");
  c[1].on_put(p);
  changes = live.take_changes(at("2024-05-01T10:00:00Z"));
  REQUIRE(changes.size() == 1);
  CHECK(changes[0].job.gpus_requested == 1);
}
