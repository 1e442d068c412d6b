// Elastic PyTorchJobs (training-operator v1.9.0 elasticPolicy, torchrun's c10d rendezvous and
// elastic agent) losing a worker, a static job losing one, and POST /kubesim/nodes/NAME/evict.
#include "kubesim/node_evict.h"
#include "rest_fixture.h"
#include "test_controllers_fixture.h"

using namespace kubesim;
using namespace kubesim::testing;

namespace {

json job_of(const std::string& name, json replica_specs, json extra_spec = json::object()) {
  json spec = {{"pytorchReplicaSpecs", std::move(replica_specs)}};
  for (auto it = extra_spec.begin(); it != extra_spec.end(); ++it) spec[it.key()] = *it;
  return {{"apiVersion", "kubeflow.org/v1"},
          {"kind", "PyTorchJob"},
          {"metadata",
           {{"name", name},
            {"namespace", "default"},
            {"annotations", {{"kubesim.trainctl.io/duration", "90s"}}}}},
          {"spec", spec}};
}

json tmpl(const std::string& script) {
  return {{"spec",
           {{"containers", json::array({{{"name", "pytorch"},
                                         {"image", "pytorch/pytorch"},
                                         {"command", json::array({"sh", "-c", script})}}})}}}};
}

// 3 workers, elasticPolicy min 2 max 3 on c10d: the operator's PET_* env drives torchrun.
json elastic_job(const std::string& name, int max_restarts) {
  return job_of(
      name,
      {{"Worker",
        {{"replicas", 3}, {"restartPolicy", "OnFailure"}, {"template", tmpl("torchrun train.py")}}}},
      {{"elasticPolicy",
        {{"minReplicas", 2}, {"maxReplicas", 3}, {"rdzvBackend", "c10d"}, {"maxRestarts", max_restarts}}}});
}

std::vector<std::string> log_of(SimFixture& f, const std::string& pod) {
  std::vector<std::string> out;
  for (const auto& l : f.logs.lines("default", pod, "pytorch")) out.push_back(l.text);
  return out;
}

bool has_line(const std::vector<std::string>& lines, const std::string& text) {
  return std::find(lines.begin(), lines.end(), text) != lines.end();
}

std::string true_condition(SimFixture& f, const std::string& job) {
  std::string out;
  for (const auto& c :
       f.get("kubeflow.org", "v1", "pytorchjobs", job)["status"].value("conditions", json::array()))
    if (c.value("status", "") == "True") out = c.value("type", "");
  return out;
}

std::string uid(const json& obj) { return obj["metadata"].value("uid", ""); }

// The operator's Warning events PyTorchJobRestarting about job `name`.
int restart_events(SimFixture& f, const std::string& name) {
  int n = 0;
  for (const auto& e : f.list("", "v1", "events"))
    if (e["involvedObject"].value("name", "") == name && e.value("reason", "") == "PyTorchJobRestarting") ++n;
  return n;
}

}  // namespace

TEST_CASE("elastic PyTorchJob: the operator's env for torchrun", "[elastic][pytorch]") {
  SimFixture f;
  f.create("kubeflow.org", "v1", "pytorchjobs", elastic_job("el", 3));
  f.step(0ms);
  const json c = f.pod("el-worker-1")["spec"]["containers"][0];
  // pkg/controller.v1/pytorch/elastic.go: the endpoint is worker 0 on the Worker port.
  CHECK(env_value(c, "PET_RDZV_ENDPOINT") == "el-worker-0:23456");
  CHECK(env_value(c, "PET_RDZV_BACKEND") == "c10d");
  CHECK(env_value(c, "PET_NNODES") == "2:3");
  CHECK(env_value(c, "PET_MAX_RESTARTS") == "3");
  CHECK(env_value(c, "MASTER_ADDR") == "<unset>");  // no Master: no MASTER_* nor RANK
}

TEST_CASE("elastic PyTorchJob survives losing a worker: restart, recreate, rejoin, succeed",
          "[elastic][pytorch]") {
  SimFixture f;
  f.create("kubeflow.org", "v1", "pytorchjobs", elastic_job("el", 3));
  f.step(20s);
  REQUIRE(phase(f.pod("el-worker-2")) == "Running");
  REQUIRE_FALSE(log_of(f, "el-worker-0").empty());  // training
  const std::string old_uid = uid(f.pod("el-worker-2"));
  f.store.remove(f.pods(), "default", "el-worker-2");  // kubectl delete pod (grace 30 s)
  f.step(1s);
  const auto w0 = log_of(f, "el-worker-0");
  // torch/distributed/elastic/agent/server/api.py _invoke_run
  CHECK(has_line(w0, "[default] Worker group FAILED. 3/3 attempts left; will restart worker group"));
  CHECK(has_line(log_of(f, "el-worker-1"),
                 "[default] Worker group FAILED. 3/3 attempts left; will restart worker group"));
  CHECK(phase(f.pod("el-worker-0")) == "Running");
  CHECK(phase(f.pod("el-worker-1")) == "Running");
  // Training goes on with 2 nodes (>= minReplicas) while the deleted pod terminates.
  const size_t before = log_of(f, "el-worker-0").size();
  f.step(10s);
  CHECK(log_of(f, "el-worker-0").size() > before);
  // The grace period over, the operator recreates the pod; it joins the next round.
  f.step(25s);
  const auto replacement = f.find("", "v1", "pods", "el-worker-2");
  REQUIRE(replacement);
  CHECK(uid(*replacement) != old_uid);
  f.step(10s);
  CHECK(has_line(log_of(f, "el-worker-0"),
                 "[default] Detected 1 new nodes from group_rank=0; will restart worker group"));
  CHECK(true_condition(f, "el") == "Running");
  f.step(60s);
  CHECK(true_condition(f, "el") == "Succeeded");
  // The newcomer trained with the others until the round's work was done.
  const auto w2 = log_of(f, "el-worker-2");
  CHECK(w2.size() < log_of(f, "el-worker-0").size());
  CHECK(w2.front() == "WORLD_SIZE: 1, CURRENT_RANK: 0");  // its own log, not the deleted pod's
  CHECK(w2.back() == "accuracy=0.9904");
  for (const char* p : {"el-worker-0", "el-worker-1", "el-worker-2"}) CHECK(phase(f.pod(p)) == "Succeeded");
  CHECK(log_of(f, "el-worker-0").back() == "accuracy=0.9904");
}

TEST_CASE("elastic PyTorchJob without restarts left: its agents stop; the operator's restart policy decides",
          "[elastic][pytorch]") {
  SimFixture f;
  // OnFailure: ReconcilePods deletes a Failed pod it may retry and makes it again; the new
  // agents join a new round and the job goes on.
  f.create("kubeflow.org", "v1", "pytorchjobs", elastic_job("el0", 0));
  // ExitCode: exit code 1 is not retryable (IsRetryableExitCode: >= 128): the job fails.
  json strict = elastic_job("el0x", 0);
  strict["spec"]["pytorchReplicaSpecs"]["Worker"]["restartPolicy"] = "ExitCode";
  f.create("kubeflow.org", "v1", "pytorchjobs", strict);
  f.step(20s);
  const std::string first_uid = uid(f.pod("el0-worker-0"));
  f.store.remove(f.pods(), "default", "el0-worker-1");
  f.store.remove(f.pods(), "default", "el0x-worker-1");
  f.step(1s);
  CHECK(phase(f.pod("el0x-worker-0")) == "Failed");
  CHECK(log_of(f, "el0x-worker-0").back() == "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ");
  f.step(2s);
  const json x = f.get("kubeflow.org", "v1", "pytorchjobs", "el0x");
  REQUIRE(find_condition(x, "Failed") != nullptr);
  CHECK((*find_condition(x, "Failed"))["message"] == "job \"el0x\" is failing because \"Worker\" replica(s) failed.");
  CHECK(uid(f.pod("el0-worker-0")) != first_uid);  // replaced
  CHECK(restart_events(f, "el0") >= 1);
  CHECK(true_condition(f, "el0") != "Failed");
  f.step(120s);
  CHECK(true_condition(f, "el0") == "Succeeded");
}

TEST_CASE("elastic PyTorchJob below minReplicas waits for the next round, then times out", "[elastic][pytorch]") {
  SimulationOptions o;
  o.rendezvous_timeout = std::chrono::seconds(30);
  SimFixture f(true, o);
  json low = elastic_job("low", 3);
  low["spec"]["pytorchReplicaSpecs"]["Worker"]["restartPolicy"] = "ExitCode";  // a Failed pod stays
  f.create("kubeflow.org", "v1", "pytorchjobs", low);
  f.step(20s);
  DeleteOptions slow;
  slow.grace_period_seconds = 60;  // the pods stay Terminating past the join timeout
  f.store.remove(f.pods(), "default", "low-worker-1", slow);
  f.store.remove(f.pods(), "default", "low-worker-2", slow);
  f.step(1s);
  const size_t lines = log_of(f, "low-worker-0").size();
  CHECK(log_of(f, "low-worker-0").back() == "[default] Worker group FAILED. 3/3 attempts left; will restart worker group");
  f.step(20s);
  CHECK(phase(f.pod("low-worker-0")) == "Running");
  CHECK(log_of(f, "low-worker-0").size() == lines);  // 1 of 2 nodes: no training
  f.step(15s);
  CHECK(phase(f.pod("low-worker-0")) == "Failed");
  CHECK(log_of(f, "low-worker-0").back() == "torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError");
}

TEST_CASE("a non-elastic PyTorchJob losing a worker: the others train on, the pod comes back",
          "[elastic][pytorch]") {
  SimFixture f;
  json spec = {
      {"Master", {{"replicas", 1}, {"restartPolicy", "OnFailure"}, {"template", tmpl("torchrun train.py")}}},
      {"Worker", {{"replicas", 2}, {"restartPolicy", "OnFailure"}, {"template", tmpl("torchrun train.py")}}}};
  f.create("kubeflow.org", "v1", "pytorchjobs", job_of("st", spec));
  f.step(20s);
  const std::string old_uid = uid(f.pod("st-worker-1"));
  f.store.remove(f.pods(), "default", "st-worker-1");
  f.step(40s);
  // Today's rule: the static rendezvous is judged once, when a container starts; the other
  // ranks keep training and the recreated pod finds its store's rank 0 listening.
  CHECK_FALSE(has_line(log_of(f, "st-master-0"),
                       "[default] Worker group FAILED. 0/0 attempts left; will restart worker group"));
  CHECK(uid(f.pod("st-worker-1")) != old_uid);
  f.step(120s);
  CHECK(true_condition(f, "st") == "Succeeded");
}

TEST_CASE("evicting a node deletes the pods bound to it, and only them", "[elastic][kubesim]") {
  SimFixture f;
  f.create("kubeflow.org", "v1", "pytorchjobs", elastic_job("ev", 3));
  f.step(5s);
  const std::string node = f.pod("ev-worker-1")["spec"].value("nodeName", "");
  REQUIRE_FALSE(node.empty());
  std::vector<std::string> on_node;
  for (const auto& p : f.list("", "v1", "pods"))
    if (p["spec"].value("nodeName", "") == node)
      on_node.push_back("default/" + p["metadata"].value("name", ""));
  const json answer = evict_node_pods(f.store, node);
  CHECK(answer["node"] == node);
  CHECK(answer["evicted"].get<std::vector<std::string>>() == on_node);
  for (const auto& p : f.list("", "v1", "pods"))
    CHECK(p["metadata"].contains("deletionTimestamp") == (p["spec"].value("nodeName", "") == node));
  CHECK_THROWS_AS(evict_node_pods(f.store, "no-such-node"), StatusError);
}

TEST_CASE("POST /kubesim/nodes/NAME/evict over HTTP", "[elastic][kubesim]") {
  SimServer sim;
  auto c = sim.client();
  auto r = c->Post("/api/v1/nodes", R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n1"}})", kJson);
  REQUIRE(r);
  REQUIRE(r->status == 201);
  r = c->Post(
      "/api/v1/namespaces/default/pods",
      R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"nodeName":"n1","containers":[{"name":"c","image":"i"}]}})",
      kJson);
  REQUIRE(r);
  REQUIRE(r->status == 201);
  r = c->Post("/kubesim/nodes/n1/evict", "", kJson);
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(body_json(r)["evicted"] == json::array({"default/p"}));
  r = c->Get("/api/v1/namespaces/default/pods/p");
  REQUIRE(r);
  CHECK(body_json(r)["metadata"].contains("deletionTimestamp"));
  CHECK(c->Post("/kubesim/nodes/nope/evict", "", kJson)->status == 404);
  CHECK(c->Get("/kubesim/nodes/n1/evict")->status == 405);
}
