// TFJob: training-operator v1.9.0's pods, labels, TF_CONFIG, services and status conditions.
#include "kubesim/controllers/context.h"
#include "kubesim/controllers/tf_config.h"
#include "test_controllers_fixture.h"

using namespace kubesim;
using namespace kubesim::testing;

namespace {

json tf_replica(int replicas, const std::string& outcome, const std::string& duration,
                const std::string& policy = "Never") {
  const json annotations = {{"kubesim.trainctl.io/outcome", outcome},
                            {"kubesim.trainctl.io/duration", duration}};
  json tmpl = {
      {"metadata", {{"annotations", annotations}}},
      {"spec",
       {{"containers", json::array({gpu_container("tensorflow", "python /opt/model/train.py", 0)})}}}};
  return {{"replicas", replicas}, {"restartPolicy", policy}, {"template", tmpl}};
}

json tf_job(const std::string& name, json specs) {
  return {{"apiVersion", "kubeflow.org/v1"},
          {"kind", "TFJob"},
          {"metadata", {{"name", name}, {"namespace", "default"}}},
          {"spec", {{"tfReplicaSpecs", std::move(specs)}}}};
}

json tfjob(SimFixture& f, const std::string& name) { return f.get("kubeflow.org", "v1", "tfjobs", name); }

// Reports a pod's container as terminated, as the kubelet would (the simulated containers of
// one replica type share their template's outcome and duration).
void terminate_pod(SimFixture& f, const std::string& name, const std::string& phase, int exit_code) {
  f.store.mutate(f.pods(), "default", name, [&](json& p) {
    p["status"]["phase"] = phase;
    for (auto& cs : p["status"]["containerStatuses"])
      cs["state"] = {
          {"terminated", {{"exitCode", exit_code}, {"reason", exit_code ? "Error" : "Completed"}}}};
    return true;
  });
}

}  // namespace

TEST_CASE("TFJob creates chief, ps and worker pods with labels, services and TF_CONFIG",
          "[controllers][tfjob]") {
  SimFixture f;
  // The chief ends after 20 s; ps and workers would train for 10 minutes.
  json job = f.create("kubeflow.org", "v1", "tfjobs",
                      tf_job("tf-dist", {{"Chief", tf_replica(1, "succeed", "20s")},
                                         {"PS", tf_replica(1, "succeed", "10m")},
                                         {"Worker", tf_replica(2, "succeed", "10m")}}));
  f.step(0ms);

  const std::vector<std::string> names = {"tf-dist-chief-0", "tf-dist-ps-0", "tf-dist-worker-0",
                                          "tf-dist-worker-1"};
  CHECK(f.list("", "v1", "pods").size() == 4);
  for (const auto& n : names) {
    const json pod = f.pod(n);
    const auto& l = pod["metadata"]["labels"];
    CHECK(l["training.kubeflow.org/job-name"] == "tf-dist");
    CHECK(l["training.kubeflow.org/operator-name"] == "tfjob-controller");
    CHECK(pod["metadata"]["ownerReferences"][0]["kind"] == "TFJob");
    CHECK(pod["metadata"]["ownerReferences"][0]["uid"] == job["metadata"]["uid"]);
    CHECK(pod["spec"]["restartPolicy"] == "Never");
    const json svc = f.get("", "v1", "services", n);
    CHECK(svc["spec"]["clusterIP"] == "None");
    CHECK(svc["spec"]["ports"][0]["name"] == "tfjob-port");
    CHECK(svc["spec"]["ports"][0]["port"] == 2222);
    CHECK(svc["spec"]["selector"]["training.kubeflow.org/replica-index"] ==
          l["training.kubeflow.org/replica-index"]);
  }
  CHECK(f.list("", "v1", "services").size() >= 4);
  const json chief = f.pod("tf-dist-chief-0");
  CHECK(chief["metadata"]["labels"]["training.kubeflow.org/replica-type"] == "chief");
  CHECK(chief["metadata"]["labels"]["training.kubeflow.org/job-role"] == "master");
  const json w1 = f.pod("tf-dist-worker-1");
  CHECK(w1["metadata"]["labels"]["training.kubeflow.org/replica-type"] == "worker");
  CHECK(w1["metadata"]["labels"]["training.kubeflow.org/replica-index"] == "1");
  CHECK_FALSE(w1["metadata"]["labels"].contains("training.kubeflow.org/job-role"));
  CHECK_FALSE(f.pod("tf-dist-worker-0")["metadata"]["labels"].contains("training.kubeflow.org/job-role"));
  CHECK(f.pod("tf-dist-ps-0")["metadata"]["labels"]["training.kubeflow.org/replica-type"] == "ps");

  // TF_CONFIG of worker 1, as genTFConfigJSONStr writes it.
  const std::string raw = env_value(w1["spec"]["containers"][0], "TF_CONFIG");
  CHECK(raw ==
        "{\"cluster\":{\"chief\":[\"tf-dist-chief-0.default.svc:2222\"],\"ps\":[\"tf-dist-ps-0.default.svc:"
        "2222\"],"
        "\"worker\":[\"tf-dist-worker-0.default.svc:2222\",\"tf-dist-worker-1.default.svc:2222\"]},"
        "\"task\":{\"type\":\"worker\",\"index\":1},\"environment\":\"cloud\"}");
  const json tf = json::parse(raw);
  CHECK(tf["cluster"]["chief"] == json::array({"tf-dist-chief-0.default.svc:2222"}));
  CHECK(tf["cluster"]["ps"] == json::array({"tf-dist-ps-0.default.svc:2222"}));
  CHECK(tf["cluster"]["worker"] ==
        json::array({"tf-dist-worker-0.default.svc:2222", "tf-dist-worker-1.default.svc:2222"}));
  CHECK(tf["task"]["type"] == "worker");
  CHECK(tf["task"]["index"] == 1);
  CHECK(tf["environment"] == "cloud");
  CHECK(json::parse(env_value(chief["spec"]["containers"][0], "TF_CONFIG"))["task"] ==
        json{{"type", "chief"}, {"index", 0}});

  json created = tfjob(f, "tf-dist");
  const json* c = find_condition(created, "Created");
  REQUIRE(c != nullptr);
  CHECK((*c)["reason"] == "TFJobCreated");
  CHECK((*c)["message"] == "TFJob tf-dist is created.");

  f.step(5s);
  json running = tfjob(f, "tf-dist");
  const json* r = find_condition(running, "Running");
  REQUIRE(r != nullptr);
  CHECK((*r)["status"] == "True");
  CHECK((*r)["reason"] == "TFJobRunning");
  CHECK((*r)["message"] == "TFJob default/tf-dist is running.");
  CHECK(running["status"]["replicaStatuses"]["Worker"]["active"] == 2);
  CHECK(running["status"].contains("startTime"));

  // The chief succeeds while ps and workers still run: the job has succeeded.
  f.step(30s);
  CHECK(phase(f.pod("tf-dist-chief-0")) == "Succeeded");
  CHECK(phase(f.pod("tf-dist-worker-0")) == "Running");
  json done = tfjob(f, "tf-dist");
  const json* s = find_condition(done, "Succeeded");
  REQUIRE(s != nullptr);
  CHECK((*s)["status"] == "True");
  CHECK((*s)["reason"] == "TFJobSucceeded");
  CHECK((*s)["message"] == "TFJob default/tf-dist successfully completed.");
  CHECK((*find_condition(done, "Running"))["status"] == "False");
  CHECK(done["status"].contains("completionTime"));
}

TEST_CASE("TFJob defaults: lower-case replica types, tfjob-port, a single replica gets no TF_CONFIG",
          "[controllers][tfjob]") {
  SimFixture f;
  json w = tf_replica(1, "succeed", "10s");
  w.erase("restartPolicy");
  w.erase("replicas");
  w["template"]["spec"]["containers"][0]["ports"] =
      json::array({{{"name", "tfjob-port"}, {"containerPort", 3333}}});
  f.create("kubeflow.org", "v1", "tfjobs", tf_job("tf-local", {{"worker", w}}));
  f.step(0ms);
  const json pod = f.pod("tf-local-worker-0");
  CHECK(pod["spec"]["restartPolicy"] == "Never");
  CHECK(env_value(pod["spec"]["containers"][0], "TF_CONFIG") == "<unset>");
  CHECK(pod["metadata"]["labels"]["training.kubeflow.org/job-role"] == "master");  // worker 0 without chief
  CHECK(f.get("", "v1", "services", "tf-local-worker-0")["spec"]["ports"][0]["port"] == 3333);
}

TEST_CASE("TFJob without chief succeeds when worker 0 succeeds", "[controllers][tfjob]") {
  SimFixture f;
  f.create("kubeflow.org", "v1", "tfjobs",
           tf_job("tf-w0",
                  {{"PS", tf_replica(1, "succeed", "10m")}, {"Worker", tf_replica(2, "succeed", "10m")}}));
  f.step(5s);
  CHECK(condition_true(tfjob(f, "tf-w0"), "Running"));
  terminate_pod(f, "tf-w0-worker-0", "Succeeded", 0);
  f.step(1s);
  CHECK(phase(f.pod("tf-w0-worker-1")) == "Running");
  json job = tfjob(f, "tf-w0");
  CHECK(condition_true(job, "Succeeded"));
  CHECK(job["status"]["replicaStatuses"]["Worker"]["succeeded"] == 1);
}

TEST_CASE("TFJob with successPolicy AllWorkers waits for every worker", "[controllers][tfjob]") {
  SimFixture f;
  json job = tf_job("tf-all", {{"Worker", tf_replica(2, "succeed", "60s")}});
  job["spec"]["successPolicy"] = "AllWorkers";
  f.create("kubeflow.org", "v1", "tfjobs", job);
  f.step(5s);
  terminate_pod(f, "tf-all-worker-0", "Succeeded", 0);
  f.step(1s);
  CHECK(phase(f.pod("tf-all-worker-1")) == "Running");
  json mid = tfjob(f, "tf-all");
  CHECK_FALSE(condition_true(mid, "Succeeded"));
  CHECK(condition_true(mid, "Running"));
  f.step(60s);
  json done = tfjob(f, "tf-all");
  CHECK(condition_true(done, "Succeeded"));
  CHECK(done["status"]["replicaStatuses"]["Worker"]["succeeded"] == 2);
}

TEST_CASE("TFJob fails when a worker with restartPolicy Never fails", "[controllers][tfjob]") {
  SimFixture f;
  f.create("kubeflow.org", "v1", "tfjobs",
           tf_job("tf-fail",
                  {{"Chief", tf_replica(1, "succeed", "10m")}, {"Worker", tf_replica(2, "fail", "20s")}}));
  f.step(5s);
  CHECK(condition_true(tfjob(f, "tf-fail"), "Running"));
  f.step(35s);
  CHECK(phase(f.pod("tf-fail-worker-1")) == "Failed");
  json job = tfjob(f, "tf-fail");
  const json* failed = find_condition(job, "Failed");
  REQUIRE(failed != nullptr);
  CHECK((*failed)["status"] == "True");
  CHECK((*failed)["reason"] == "TFJobFailed");
  CHECK((*failed)["message"] == "TFJob default/tf-fail has failed because 2 Worker replica(s) failed.");
  CHECK_FALSE(condition_true(job, "Succeeded"));
  CHECK(job["status"].contains("completionTime"));
  CHECK(f.find("", "v1", "pods", "tf-fail-worker-1"));  // Never: the failed pod is not re-created
}

TEST_CASE("TF_CONFIG's sparse form with enableDynamicWorker, as convertClusterSpecToSparseClusterSpec writes it",
          "[controllers][tfjob]") {
  auto job = [](bool with_ps) {
    json specs = {{"Worker", {{"replicas", 2}}}};
    if (with_ps) specs["PS"] = {{"replicas", 1}};
    json j = {{"metadata", {{"name", "j"}, {"namespace", "default"}}},
              {"spec", {{"enableDynamicWorker", true}, {"tfReplicaSpecs", specs}}}};
    return tf_defaults(j);
  };
  // A worker knows itself and every ps; without ps its PS is Go's nil slice: null.
  CHECK(tf_config_json(job(true), "worker", 1) ==
        R"({"cluster":{"worker":{"1":"j-worker-1.default.svc:2222"},"ps":["j-ps-0.default.svc:2222"]},)"
        R"("task":{"type":"worker","index":1}})");
  CHECK(tf_config_json(job(false), "worker", 0) ==
        R"({"cluster":{"worker":{"0":"j-worker-0.default.svc:2222"},"ps":null},"task":{"type":"worker","index":0}})");
  // A ps knows only itself; the worker map starts empty.
  CHECK(tf_config_json(job(true), "ps", 0) ==
        R"({"cluster":{"worker":{},"ps":["j-ps-0.default.svc:2222"]},"task":{"type":"ps","index":0}})");
}
