// The scheduler: GPUs, nodeSelector, taints and tolerations, cordoned nodes, gang labels.
#include "test_controllers_fixture.h"

using namespace kubesim;
using namespace kubesim::testing;

namespace {

json bare_pod(const std::string& name, int gpus) {
  return {{"apiVersion", "v1"},
          {"kind", "Pod"},
          {"metadata", {{"name", name}, {"namespace", "default"}}},
          {"spec",
           {{"restartPolicy", "Never"},
            {"containers", json::array({gpu_container("main", "sleep 3600", gpus)})}}}};
}

std::vector<json> events_for(SimFixture& f, const std::string& pod, const std::string& reason) {
  std::vector<json> out;
  for (const auto& e : f.list("", "v1", "events"))
    if (e["involvedObject"]["name"] == pod && e["reason"] == reason) out.push_back(e);
  return out;
}

}  // namespace

TEST_CASE("pods land on nodes with free GPUs and get a Scheduled event", "[scheduler]") {
  SimFixture f;
  for (int i = 0; i < 3; ++i) f.create("", "v1", "pods", bare_pod("p" + std::to_string(i), 2));
  f.step(0ms);
  std::set<std::string> nodes;
  for (int i = 0; i < 3; ++i) {
    json p = f.pod("p" + std::to_string(i));
    const std::string node = p["spec"].value("nodeName", "");
    CHECK(node.find("cn-huhehaote.192.168.0.3") == 0);
    nodes.insert(node);
    REQUIRE(events_for(f, "p" + std::to_string(i), "Scheduled").size() == 1);
    CHECK(events_for(f, "p" + std::to_string(i), "Scheduled")[0]["message"] ==
          "Successfully assigned default/p" + std::to_string(i) + " to " + node);
  }
  CHECK(nodes.size() == 3);  // 2 GPUs each: one pod per GPU node

  // The cluster is full: a fourth GPU pod waits, with kube-scheduler's message.
  f.create("", "v1", "pods", bare_pod("p3", 1));
  f.step(1s);
  json p3 = f.pod("p3");
  CHECK(p3["spec"].value("nodeName", "") == "");
  const json* cond = find_condition(p3, "PodScheduled");
  REQUIRE(cond != nullptr);
  CHECK((*cond)["reason"] == "Unschedulable");
  CHECK((*cond)["message"] ==
        "0/6 nodes are available: 3 Insufficient nvidia.com/gpu, 3 node(s) had untolerated taint "
        "{node-role.kubernetes.io/master: }.");
  CHECK(events_for(f, "p3", "FailedScheduling").size() == 1);

  // Freeing a node lets the waiting pod in, once the deleted pod has terminated: it holds its
  // GPUs for its 30s grace period.
  f.store.remove(f.pods(), "default", "p0");
  f.step(1s);
  CHECK(f.pod("p0")["metadata"].contains("deletionTimestamp"));
  CHECK(f.pod("p3")["spec"].value("nodeName", "").empty());
  f.step(30s);
  CHECK_FALSE(f.find("", "v1", "pods", "p0"));
  CHECK_FALSE(f.pod("p3")["spec"].value("nodeName", "").empty());
}

TEST_CASE("nodeSelector and tolerations", "[scheduler]") {
  SimFixture f;
  json on_master = bare_pod("on-master", 0);
  on_master["spec"]["nodeSelector"] = {{"node-role.kubernetes.io/master", ""}};
  f.create("", "v1", "pods", on_master);

  json tolerated = on_master;
  tolerated["metadata"]["name"] = "tolerated";
  tolerated["spec"]["tolerations"] = json::array(
      {{{"key", "node-role.kubernetes.io/master"}, {"operator", "Exists"}, {"effect", "NoSchedule"}}});
  f.create("", "v1", "pods", tolerated);

  json nowhere = bare_pod("nowhere", 0);
  nowhere["spec"]["nodeSelector"] = {{"accelerator", "tpu"}};
  f.create("", "v1", "pods", nowhere);
  f.step(0ms);

  CHECK(f.pod("on-master")["spec"].value("nodeName", "") == "");
  CHECK((*find_condition(f.pod("on-master"), "PodScheduled"))["message"] ==
        "0/6 nodes are available: 3 node(s) didn't match Pod's node affinity/selector, "
        "3 node(s) had untolerated taint {node-role.kubernetes.io/master: }.");
  const std::string node = f.pod("tolerated")["spec"].value("nodeName", "");
  CHECK((node == "cn-huhehaote.192.168.0.20" || node == "cn-huhehaote.192.168.0.21" ||
         node == "cn-huhehaote.192.168.0.22"));
  CHECK(f.pod("nowhere")["spec"].value("nodeName", "") == "");
}

TEST_CASE("cordoned and NotReady nodes take no pods", "[scheduler]") {
  SimFixture f;
  const ResourceType& nodes = f.type("", "v1", "nodes");
  f.store.mutate(nodes, "", "cn-huhehaote.192.168.0.31", [](json& n) {
    n["spec"]["unschedulable"] = true;
    return true;
  });
  f.store.mutate(nodes, "", "cn-huhehaote.192.168.0.32", [](json& n) {
    for (auto& c : n["status"]["conditions"])
      if (c["type"] == "Ready") c["status"] = "False";
    return true;
  });
  f.create("", "v1", "pods", bare_pod("a", 2));
  f.create("", "v1", "pods", bare_pod("b", 2));
  f.step(0ms);
  CHECK(f.pod("a")["spec"]["nodeName"] == "cn-huhehaote.192.168.0.33");
  CHECK((*find_condition(f.pod("b"), "PodScheduled"))["message"] ==
        "0/6 nodes are available: 1 Insufficient nvidia.com/gpu, 1 node(s) had untolerated taint "
        "{node.kubernetes.io/not-ready: }, 1 node(s) were unschedulable, 3 node(s) had untolerated taint "
        "{node-role.kubernetes.io/master: }.");
}

TEST_CASE("coscheduling labels bind a gang all or nothing", "[scheduler]") {
  SimFixture f;
  auto gang_pod = [](const std::string& name, const std::string& group, int min, int gpus) {
    json p = bare_pod(name, gpus);
    p["metadata"]["labels"] = {{"pod-group.scheduling.sigs.k8s.io/name", group},
                               {"pod-group.scheduling.sigs.k8s.io/min-available", std::to_string(min)}};
    return p;
  };
  for (int i = 0; i < 4; ++i) f.create("", "v1", "pods", gang_pod("big-" + std::to_string(i), "big", 4, 2));
  for (int i = 0; i < 3; ++i) f.create("", "v1", "pods", gang_pod("fit-" + std::to_string(i), "fit", 3, 1));
  f.step(0ms);
  for (int i = 0; i < 4; ++i) CHECK(f.pod("big-" + std::to_string(i))["spec"].value("nodeName", "") == "");
  for (int i = 0; i < 3; ++i)
    CHECK_FALSE(f.pod("fit-" + std::to_string(i))["spec"].value("nodeName", "").empty());
}

TEST_CASE("pods go ContainerCreating, Init, Running with kubelet statuses", "[scheduler][kubelet]") {
  SimFixture f;
  json p = bare_pod("with-init", 0);
  p["spec"]["initContainers"] = json::array({{{"name", "git-sync"}, {"image", "git-sync:v3"}}});
  f.create("", "v1", "pods", p);
  f.create("", "v1", "pods", bare_pod("plain", 0));
  f.step(0ms);
  json plain = f.pod("plain");
  CHECK(phase(plain) == "Pending");
  CHECK(plain["status"]["containerStatuses"][0]["state"]["waiting"]["reason"] == "ContainerCreating");
  json init = f.pod("with-init");
  CHECK(init["status"]["initContainerStatuses"][0]["state"].contains("running"));
  CHECK(init["status"]["containerStatuses"][0]["state"]["waiting"]["reason"] == "PodInitializing");
  f.step(5s);
  plain = f.pod("plain");
  CHECK(phase(plain) == "Running");
  CHECK((*find_condition(plain, "Ready"))["status"] == "True");
  CHECK(plain["status"].contains("startTime"));
  init = f.pod("with-init");
  CHECK(phase(init) == "Running");
  CHECK(init["status"]["initContainerStatuses"][0]["state"]["terminated"]["reason"] == "Completed");
}
