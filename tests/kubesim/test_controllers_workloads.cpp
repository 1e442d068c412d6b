// batch/v1 Jobs, Deployments and Services.
#include <regex>

#include "test_controllers_fixture.h"

using namespace kubesim;
using namespace kubesim::testing;

TEST_CASE("an Indexed Job runs one pod per completion index", "[controllers][job]") {
  SimFixture f;
  json job = {{"apiVersion", "batch/v1"},
              {"kind", "Job"},
              {"metadata",
               {{"name", "dist"},
                {"namespace", "default"},
                {"annotations", {{"kubesim.trainctl.io/duration", "20s"}}}}},
              {"spec",
               {{"completionMode", "Indexed"},
                {"completions", 3},
                {"parallelism", 3},
                {"template",
                 {{"spec",
                   {{"restartPolicy", "Never"},
                    {"containers", json::array({gpu_container("trainer", "torchrun train.py", 1)})}}}}}}}};
  json created = f.create("batch", "v1", "jobs", job);
  f.step(0ms);
  const std::string uid = created["metadata"]["uid"];
  std::set<std::string> indexes;
  for (const auto& p : f.list("", "v1", "pods")) {
    const std::string name = p["metadata"]["name"];
    const auto& l = p["metadata"]["labels"];
    const std::string idx = l.value("batch.kubernetes.io/job-completion-index", "");
    CHECK(std::regex_match(name, std::regex("dist-" + idx + "-[bcdfghjklmnpqrstvwxz2456789]{5}")));
    CHECK(l["batch.kubernetes.io/job-name"] == "dist");
    CHECK(l["job-name"] == "dist");
    CHECK(l["controller-uid"] == uid);
    CHECK(l["batch.kubernetes.io/controller-uid"] == uid);
    CHECK(p["metadata"]["annotations"]["batch.kubernetes.io/job-completion-index"] == idx);
    CHECK(p["spec"]["hostname"] == "dist-" + idx);
    CHECK(env_value(p["spec"]["containers"][0], "JOB_COMPLETION_INDEX") == "<valueFrom>");
    indexes.insert(idx);
  }
  CHECK(indexes == std::set<std::string>{"0", "1", "2"});
  f.step(5s);
  json st = f.get("batch", "v1", "jobs", "dist")["status"];
  CHECK(st["active"] == 3);
  CHECK(st["ready"] == 3);
  CHECK(st.contains("startTime"));
  f.step(30s);
  st = f.get("batch", "v1", "jobs", "dist")["status"];
  CHECK(st["succeeded"] == 3);
  CHECK(st["active"] == 0);
  CHECK(st["completedIndexes"] == "0-2");
  CHECK(st.contains("completionTime"));
  REQUIRE(st["conditions"].size() == 1);
  CHECK(st["conditions"][0]["type"] == "Complete");
  CHECK(st["conditions"][0]["status"] == "True");
}

TEST_CASE("a failing Job stops at its backoffLimit", "[controllers][job]") {
  SimFixture f;
  json job = {
      {"apiVersion", "batch/v1"},
      {"kind", "Job"},
      {"metadata",
       {{"name", "bad"},
        {"namespace", "default"},
        {"annotations", {{"kubesim.trainctl.io/outcome", "fail"}, {"kubesim.trainctl.io/duration", "5s"}}}}},
      {"spec",
       {{"backoffLimit", 1},
        {"template",
         {{"spec",
           {{"restartPolicy", "Never"},
            {"containers", json::array({gpu_container("c", "python fail.py", 0)})}}}}}}}};
  f.create("batch", "v1", "jobs", job);
  f.step(60s);
  json st = f.get("batch", "v1", "jobs", "bad")["status"];
  CHECK(st["failed"] == 2);
  REQUIRE(st.contains("conditions"));
  CHECK(st["conditions"][0]["type"] == "Failed");
  CHECK(st["conditions"][0]["reason"] == "BackoffLimitExceeded");
  CHECK(st["conditions"][0]["message"] == "Job has reached the specified backoff limit");
  CHECK_FALSE(st.contains("completionTime"));
}

TEST_CASE("a TensorBoard Deployment gets a ReplicaSet, a ready pod and a NodePort",
          "[controllers][deployment]") {
  SimFixture f;
  json labels = {{"app", "tensorboard"}, {"release", "pytorch-dist"}};
  json dep = {{"apiVersion", "apps/v1"},
              {"kind", "Deployment"},
              {"metadata", {{"name", "pytorch-dist-tensorboard"}, {"namespace", "default"}}},
              {"spec",
               {{"replicas", 1},
                {"selector", {{"matchLabels", labels}}},
                {"template",
                 {{"metadata", {{"labels", labels}}},
                  {"spec",
                   {{"containers", json::array({{{"name", "tensorboard"},
                                                 {"image", "tensorflow/tensorflow:1.12.0"},
                                                 {"command", json::array({"tensorboard", "--logdir",
                                                                          "/mnist_data/logs"})}}})}}}}}}}};
  f.create("apps", "v1", "deployments", dep);
  json svc = {{"apiVersion", "v1"},
              {"kind", "Service"},
              {"metadata", {{"name", "pytorch-dist-tensorboard"}, {"namespace", "default"}}},
              {"spec",
               {{"type", "NodePort"},
                {"selector", labels},
                {"ports", json::array({{{"port", 6006}, {"targetPort", 6006}}})}}}};
  f.create("", "v1", "services", svc);
  f.step(5s);
  auto rss = f.list("apps", "v1", "replicasets");
  REQUIRE(rss.size() == 1);
  const std::string rs_name = rss[0]["metadata"]["name"];
  const std::string hash = rss[0]["metadata"]["labels"]["pod-template-hash"];
  CHECK(rs_name == "pytorch-dist-tensorboard-" + hash);
  auto pods = f.list("", "v1", "pods");
  REQUIRE(pods.size() == 1);
  CHECK(std::regex_match(pods[0]["metadata"]["name"].get<std::string>(),
                         std::regex(rs_name + "-[bcdfghjklmnpqrstvwxz2456789]{5}")));
  CHECK(phase(pods[0]) == "Running");
  f.step(1s);
  json st = f.get("apps", "v1", "deployments", "pytorch-dist-tensorboard")["status"];
  CHECK(st["readyReplicas"] == 1);
  CHECK(st["availableReplicas"] == 1);
  // TensorBoard keeps running (restartPolicy Always).
  f.step(120s);
  CHECK(phase(f.list("", "v1", "pods")[0]) == "Running");
  const auto port =
      f.get("", "v1", "services", "pytorch-dist-tensorboard")["spec"]["ports"][0]["nodePort"].get<int>();
  CHECK(port >= 30000);
  CHECK(port <= 32767);
}

TEST_CASE("allocate_node_port keeps valid ports and refuses bad ones", "[controllers][service]") {
  Store store;
  json svc = {{"metadata", {{"name", "s"}}},
              {"spec",
               {{"type", "NodePort"},
                {"ports", json::array({{{"port", 80}, {"nodePort", 31000}}, {{"port", 81}}})}}}};
  allocate_node_port(store, svc);
  CHECK(svc["spec"]["ports"][0]["nodePort"] == 31000);
  CHECK(svc["spec"]["ports"][1]["nodePort"] >= 30000);
  CHECK(svc["spec"]["ports"][1]["nodePort"] != 31000);
  json bad = {{"metadata", {{"name", "b"}}},
              {"spec", {{"type", "NodePort"}, {"ports", json::array({{{"port", 80}, {"nodePort", 80}}})}}}};
  try {
    allocate_node_port(store, bad);
    FAIL("expected 422");
  } catch (const StatusError& e) {
    CHECK(e.code == 422);
    CHECK(e.message.find("provided port is not in the valid range") != std::string::npos);
  }
  json cluster_ip = {{"metadata", {{"name", "c"}}}, {"spec", {{"ports", json::array({{{"port", 80}}})}}}};
  allocate_node_port(store, cluster_ip);
  CHECK_FALSE(cluster_ip["spec"]["ports"][0].contains("nodePort"));
}
