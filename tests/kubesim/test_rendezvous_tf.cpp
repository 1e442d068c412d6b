// TensorFlow's cluster from TF_CONFIG (rendezvous_tf.h): a TFJob's chief and workers train
// only once every task of the cluster answers; until then they log master.cc's
// "CreateSession still waiting for response from worker" every 10 s, with no timeout.
#include "kubesim/controllers/rendezvous_tf.h"
#include "test_controllers_fixture.h"

using namespace kubesim;
using namespace kubesim::testing;

namespace {

// Replicas that train for 20 s; ps replicas serve until they are deleted, as server.join() does.
json rdzv_tf_replica(int replicas, int gpus, const std::string& container_name = "tensorflow", json env = json::array(),
                     const std::string& outcome = "succeed") {
  json c = gpu_container(container_name, "python /opt/model/train.py", gpus);
  if (!env.empty()) c["env"] = std::move(env);
  return {{"replicas", replicas},
          {"restartPolicy", "Never"},
          {"template",
           {{"metadata", {{"annotations", {{"kubesim.trainctl.io/duration", "20s"}, {kOutcomeAnnotation, outcome}}}}},
            {"spec", {{"containers", json::array({c})}}}}}};
}

json rdzv_tf_job(const std::string& name, json specs, json extra_spec = json::object()) {
  json spec = {{"tfReplicaSpecs", std::move(specs)}};
  for (auto it = extra_spec.begin(); it != extra_spec.end(); ++it) spec[it.key()] = *it;
  return {{"apiVersion", "kubeflow.org/v1"},
          {"kind", "TFJob"},
          {"metadata", {{"name", name}, {"namespace", "default"}}},
          {"spec", std::move(spec)}};
}

// A pod that holds `gpus` GPUs of the demo cluster until it is deleted.
void hold_gpus(SimFixture& f, const std::string& name, int gpus) {
  json c = gpu_container("hold", "sleep infinity", gpus);
  f.create("", "v1", "pods",
           {{"apiVersion", "v1"},
            {"kind", "Pod"},
            {"metadata", {{"name", name}, {"namespace", "default"}, {"annotations", {{kOutcomeAnnotation, "run-forever"}}}}},
            {"spec", {{"containers", json::array({c})}}}});
}

std::vector<std::string> tf_log(SimFixture& f, const std::string& pod) {
  std::vector<std::string> out;
  for (const auto& l : f.logs.lines("default", pod, "tensorflow")) out.push_back(l.text);
  return out;
}

size_t count_line(const std::vector<std::string>& lines, const std::string& text) {
  return static_cast<size_t>(std::count(lines.begin(), lines.end(), text));
}

const std::string kTfWaitLine =
    "I tensorflow/core/distributed_runtime/master.cc] CreateSession still waiting for response from worker: ";

bool tf_succeeded(SimFixture& f, const std::string& name) {
  const json job = f.get("kubeflow.org", "v1", "tfjobs", name);
  const json* c = find_condition(job, "Succeeded");
  return c != nullptr && (*c)["status"] == "True";
}

}  // namespace

TEST_CASE("a TFJob whose worker cannot be scheduled: the others hold their GPUs and wait, with no timeout",
          "[rendezvous][contract][tf]") {
  SimFixture f;
  // 6 GPUs in the demo cluster, 2 held elsewhere: worker-2 of 3 (2 GPUs each) stays Pending.
  hold_gpus(f, "holder", 2);
  f.step(5s);
  f.create("kubeflow.org", "v1", "tfjobs",
           rdzv_tf_job("tf-dist", {{"PS", rdzv_tf_replica(1, 0, "tensorflow", json::array(), "run-forever")}, {"Worker", rdzv_tf_replica(3, 2)}}));
  f.step(35s);
  CHECK(phase(f.pod("tf-dist-worker-2")) == "Pending");
  for (const char* w : {"tf-dist-worker-0", "tf-dist-worker-1"}) {
    INFO(w);
    CHECK(phase(f.pod(w)) == "Running");
    const auto lines = tf_log(f, w);
    // Every 10 s from the start of the wait, for the tasks that have not answered by then
    // (worker-1, published a second after it became Ready, answered long before).
    CHECK(count_line(lines, kTfWaitLine + "/job:worker/replica:0/task:2") == 3);
    CHECK(lines.size() == 3);  // no training line
  }
  // The ps serves: it does not wait for anybody.
  CHECK(count_line(tf_log(f, "tf-dist-ps-0"), kTfWaitLine + "/job:worker/replica:0/task:2") == 0);
  CHECK_FALSE(tf_log(f, "tf-dist-ps-0").empty());
  // TensorFlow has no timeout here: an hour later they still wait.
  f.step(3600s);
  CHECK(phase(f.pod("tf-dist-worker-0")) == "Running");
  CHECK(tf_log(f, "tf-dist-worker-0").back() == kTfWaitLine + "/job:worker/replica:0/task:2");
  CHECK_FALSE(tf_succeeded(f, "tf-dist"));

  // Capacity returns: worker-2 starts, every task answers, and the job trains to the end.
  f.store.remove(f.pods(), "default", "holder");
  f.step(60s);
  CHECK(phase(f.pod("tf-dist-worker-2")) != "Pending");
  f.step(60s);
  CHECK(tf_succeeded(f, "tf-dist"));
  CHECK(tf_log(f, "tf-dist-worker-0").back() != kTfWaitLine + "/job:worker/replica:0/task:2");
}

TEST_CASE("nobody waits for an evaluator; a chief waits for the ps", "[rendezvous][contract][tf]") {
  SimFixture f;
  // The evaluator asks for more GPUs than any node has: it never runs.
  f.create("kubeflow.org", "v1", "tfjobs",
           rdzv_tf_job("tf-eval", {{"Chief", rdzv_tf_replica(1, 0)}, {"Worker", rdzv_tf_replica(1, 1)}, {"Evaluator", rdzv_tf_replica(1, 4)}}));
  // The ps asks for more GPUs than any node has: the chief and the worker wait for it.
  f.create("kubeflow.org", "v1", "tfjobs",
           rdzv_tf_job("tf-ps", {{"Chief", rdzv_tf_replica(1, 0)}, {"Worker", rdzv_tf_replica(1, 1)}, {"PS", rdzv_tf_replica(1, 4)}}));
  f.step(60s);
  CHECK(phase(f.pod("tf-eval-evaluator-0")) == "Pending");
  CHECK(tf_succeeded(f, "tf-eval"));
  CHECK(count_line(tf_log(f, "tf-eval-chief-0"), kTfWaitLine + "/job:evaluator/replica:0/task:0") == 0);
  CHECK_FALSE(tf_succeeded(f, "tf-ps"));
  for (const char* p : {"tf-ps-chief-0", "tf-ps-worker-0"}) {
    INFO(p);
    CHECK(phase(f.pod(p)) == "Running");
    CHECK(tf_log(f, p).back() == kTfWaitLine + "/job:ps/replica:0/task:0");
  }
}

TEST_CASE("the cluster's addresses must reach pods of this job that are those tasks", "[rendezvous][contract][tf]") {
  SimFixture f;
  // Another job's worker 1 answers at other-worker-1: not a task of this cluster.
  f.create("kubeflow.org", "v1", "tfjobs", rdzv_tf_job("other", {{"Worker", rdzv_tf_replica(2, 0)}}));
  // A container not called `tensorflow` gets no TF_CONFIG from the operator; this one brings
  // its own, naming the other job's worker 1 as its task 1.
  const std::string config =
      R"({"cluster":{"worker":["mine-worker-0.default.svc:2222","other-worker-1.default.svc:2222"]},)"
      R"("task":{"type":"worker","index":0}})";
  f.create("kubeflow.org", "v1", "tfjobs",
           rdzv_tf_job("mine", {{"Worker", rdzv_tf_replica(1, 0, "trainer", json::array({{{"name", "TF_CONFIG"}, {"value", config}}}))}}));
  f.step(30s);
  const auto lines = [&] {
    std::vector<std::string> out;
    for (const auto& l : f.logs.lines("default", "mine-worker-0", "trainer")) out.push_back(l.text);
    return out;
  }();
  CHECK(count_line(lines, kTfWaitLine + "/job:worker/replica:0/task:1") == 2);
  CHECK(lines.size() == 2);
  CHECK(tf_succeeded(f, "other"));  // its own cluster is whole
}

TEST_CASE("TF_CONFIG as TFConfigClusterResolver reads it; what kubesim does not judge", "[rendezvous][parse][tf]") {
  auto task_of = [](const std::string& tf_config, const std::string& command = "python train.py") {
    json pod = {{"metadata", {{"name", "p"}, {"namespace", "default"}}},
                {"spec",
                 {{"containers",
                   json::array({{{"name", "tensorflow"},
                                 {"command", json::array({"sh", "-c", command})},
                                 {"env", json::array({{{"name", "TF_CONFIG"}, {"value", tf_config}}})}}})}}}};
    return tf_task_of(pod);
  };
  auto t = task_of(R"({"cluster":{"worker":["w0:2222","w1:2222"],"ps":["p0:2223"]},"task":{"type":"worker","index":1},"environment":"cloud"})");
  REQUIRE(t.has_value());
  CHECK(t->type == "worker");
  CHECK(t->index == 1);
  CHECK(t->cluster["ps"][0] == "p0:2223");
  // The sparse form of enableDynamicWorker: a worker knows itself and the ps.
  t = task_of(R"({"cluster":{"worker":{"3":"w3:2222"},"ps":["p0:2222"]},"task":{"type":"worker","index":3}})");
  REQUIRE(t.has_value());
  CHECK(t->cluster["worker"].size() == 1);
  CHECK(t->cluster["worker"][3] == "w3:2222");
  // ... and without ps (null, as Go encodes a nil list) it is a cluster of one task.
  CHECK_FALSE(task_of(R"({"cluster":{"worker":{"0":"w0:2222"},"ps":null},"task":{"type":"worker","index":0}})"));
  // task.index defaults to 0.
  CHECK(task_of(R"({"cluster":{"worker":["w0:1","w1:1"]},"task":{"type":"worker"}})")->index == 0);
  // Not judged: one task (local training), no task, a task outside the cluster, bad JSON,
  // a wrapper script, a launcher that is not python.
  CHECK_FALSE(task_of(R"({"cluster":{"worker":["w0:2222"]},"task":{"type":"worker","index":0}})"));
  CHECK_FALSE(task_of(R"({"cluster":{"worker":["w0:2222","w1:2222"]}})"));
  CHECK_FALSE(task_of(R"({"cluster":{"worker":["w0:2222","w1:2222"]},"task":{"type":"worker","index":2}})"));
  CHECK_FALSE(task_of("{not json"));
  CHECK_FALSE(task_of(R"({"cluster":{"worker":["w0:1","w1:1"]},"task":{"type":"worker"}})", "./run.sh"));
  CHECK_FALSE(task_of(R"({"cluster":{"worker":["w0:1","w1:1"]},"task":{"type":"worker"}})", "torchrun train.py"));
}
