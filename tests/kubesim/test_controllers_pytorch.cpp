// PyTorchJob: the training-operator's pods, labels, env, services and status conditions.
#include <set>

#include "kubesim/controllers/context.h"
#include "kubesim/controllers/training_log.h"
#include "test_controllers_fixture.h"

using namespace kubesim;
using namespace kubesim::testing;

namespace {

json pytorch_job(const std::string& name, int workers, const std::string& outcome = "succeed") {
  json tmpl = {
      {"spec",
       {{"containers", json::array({gpu_container(
                           "pytorch", "python /root/code/mnist-pytorch/mnist.py --epochs 10", 1)})}}}};
  return {{"apiVersion", "kubeflow.org/v1"},
          {"kind", "PyTorchJob"},
          {"metadata",
           {{"name", name},
            {"namespace", "default"},
            {"annotations",
             {{"kubesim.trainctl.io/outcome", outcome}, {"kubesim.trainctl.io/duration", "30s"}}}}},
          {"spec",
           {{"pytorchReplicaSpecs",
             {{"Master", {{"replicas", 1}, {"restartPolicy", "OnFailure"}, {"template", tmpl}}},
              {"Worker", {{"replicas", workers}, {"restartPolicy", "OnFailure"}, {"template", tmpl}}}}}}}};
}

}  // namespace

TEST_CASE("PyTorchJob pods labelled as older releases label them (--kubeflow-pod-labels)", "[controllers][pytorch]") {
  // kubeflow/common v0.3.7 GenLabels (training-operator v1.3), v0.4.1 labels.go (v1.4: both
  // sets), kubeflow/pytorch-operator v0.7.0 controller.go and the tf-operator GenLabels it vendors.
  for (const std::string release : {"v1.3", "v1.4", "pytorch-operator-v0.7"}) {
    CAPTURE(release);
    SimulationOptions o;
    o.kubeflow_pod_labels = release;
    SimFixture f(true, o);
    f.create("kubeflow.org", "v1", "pytorchjobs", pytorch_job("old", 1));
    f.step(0ms);
    f.step(5s);  // reconciled again: the pods it made are found, none made twice
    const json master = f.pod("old-master-0");
    const auto& l = master["metadata"]["labels"];
    CHECK(l["group-name"] == "kubeflow.org");
    CHECK(l["job-role"] == "master");
    CHECK(l.contains("training.kubeflow.org/job-name") == (release == "v1.4"));
    if (release == "pytorch-operator-v0.7") {
      CHECK(l["pytorch-job-name"] == "old");
      CHECK(l["job-name"] == "old");
      CHECK(l["controller-name"] == "pytorch-operator");
      CHECK(l["pytorch-replica-type"] == "master");
      CHECK(l["pytorch-replica-index"] == "0");
      CHECK_FALSE(l.contains("replica-type"));
    } else {
      CHECK(l["job-name"] == "old");
      CHECK(l["replica-type"] == "master");
      CHECK(l["replica-index"] == "0");
    }
    CHECK(f.list("", "v1", "pods").size() == 2);
    const json svc = f.get("", "v1", "services", "old-master-0");
    CHECK(svc["spec"]["selector"]["group-name"] == "kubeflow.org");
    CHECK(svc["spec"]["selector"].contains("training.kubeflow.org/job-name") == (release == "v1.4"));
  }
}

TEST_CASE("PyTorchJob creates the operator's pods with its labels and env", "[controllers][pytorch]") {
  SimFixture f;
  json job = f.create("kubeflow.org", "v1", "pytorchjobs", pytorch_job("pytorch-dist", 2));
  f.step(0ms);

  const json master = f.pod("pytorch-dist-master-0");
  const json w0 = f.pod("pytorch-dist-worker-0");
  const json w1 = f.pod("pytorch-dist-worker-1");
  CHECK_FALSE(f.find("", "v1", "pods", "pytorch-dist-worker-2"));

  const auto& ml = master["metadata"]["labels"];
  CHECK(ml["training.kubeflow.org/job-name"] == "pytorch-dist");
  CHECK(ml["training.kubeflow.org/replica-type"] == "master");
  CHECK(ml["training.kubeflow.org/replica-index"] == "0");
  CHECK(ml["training.kubeflow.org/job-role"] == "master");
  CHECK(ml["training.kubeflow.org/operator-name"] == "pytorchjob-controller");
  const auto& wl = w1["metadata"]["labels"];
  CHECK(wl["training.kubeflow.org/replica-type"] == "worker");
  CHECK(wl["training.kubeflow.org/replica-index"] == "1");
  CHECK_FALSE(wl.contains("training.kubeflow.org/job-role"));

  const auto& owner = master["metadata"]["ownerReferences"][0];
  CHECK(owner["kind"] == "PyTorchJob");
  CHECK(owner["uid"] == job["metadata"]["uid"]);
  CHECK(owner["controller"] == true);

  const json& mc = master["spec"]["containers"][0];
  CHECK(env_value(mc, "MASTER_ADDR") == "pytorch-dist-master-0");
  CHECK(env_value(mc, "MASTER_PORT") == "23456");
  CHECK(env_value(mc, "WORLD_SIZE") == "3");
  CHECK(env_value(mc, "RANK") == "0");
  CHECK(env_value(mc, "PYTHONUNBUFFERED") == "1");  // envvar.go sets "1", not "0"
  CHECK(env_value(mc, "PET_NNODES") == "3");
  CHECK(env_value(mc, "PET_NODE_RANK") == "0");
  CHECK(env_value(mc, "PET_MASTER_ADDR") == "pytorch-dist-master-0");
  CHECK(env_value(w0["spec"]["containers"][0], "RANK") == "1");
  CHECK(env_value(w1["spec"]["containers"][0], "RANK") == "2");
  CHECK(env_value(w1["spec"]["containers"][0], "WORLD_SIZE") == "3");
  CHECK(master["spec"]["restartPolicy"] == "OnFailure");

  // One headless Service per replica pod, named like the pod.
  for (const char* name : {"pytorch-dist-master-0", "pytorch-dist-worker-0", "pytorch-dist-worker-1"}) {
    json svc = f.get("", "v1", "services", name);
    CHECK(svc["spec"]["clusterIP"] == "None");
    CHECK(svc["spec"]["ports"][0]["port"] == 23456);
  }
  json created = f.get("kubeflow.org", "v1", "pytorchjobs", "pytorch-dist");
  const json* c = find_condition(created, "Created");
  REQUIRE(c != nullptr);
  CHECK((*c)["status"] == "True");
  CHECK((*c)["reason"] == "PyTorchJobCreated");
  CHECK((*c)["message"] == "PyTorchJob pytorch-dist is created.");
  CHECK(find_condition(created, "Running") == nullptr);
}

TEST_CASE("nprocPerNode multiplies WORLD_SIZE and sets PET_NPROC_PER_NODE", "[controllers][pytorch]") {
  SimFixture f;
  json job = pytorch_job("torchrun", 1);
  job["spec"]["nprocPerNode"] = "4";
  f.create("kubeflow.org", "v1", "pytorchjobs", job);
  f.step(0ms);
  const json pod = f.pod("torchrun-worker-0");
  const json& c = pod["spec"]["containers"][0];
  CHECK(env_value(c, "WORLD_SIZE") == "8");
  CHECK(env_value(c, "PET_NPROC_PER_NODE") == "4");
  CHECK(env_value(c, "PET_NNODES") == "2");
  CHECK(env_value(c, "PET_NODE_RANK") == "1");
}

TEST_CASE("PyTorchJob goes Created -> Running -> Succeeded with logs", "[controllers][pytorch]") {
  SimFixture f;
  f.create("kubeflow.org", "v1", "pytorchjobs", pytorch_job("pytorch-dist", 2));
  f.step(5s);

  json job = f.get("kubeflow.org", "v1", "pytorchjobs", "pytorch-dist");
  const json* running = find_condition(job, "Running");
  REQUIRE(running != nullptr);
  CHECK((*running)["status"] == "True");
  CHECK((*running)["reason"] == "PyTorchJobRunning");
  CHECK(job["status"]["replicaStatuses"]["Master"]["active"] == 1);
  CHECK(job["status"]["replicaStatuses"]["Worker"]["active"] == 2);
  CHECK(job["status"].contains("startTime"));
  CHECK_FALSE(job["status"].contains("completionTime"));

  json master = f.pod("pytorch-dist-master-0");
  CHECK(phase(master) == "Running");
  const std::string node = master["spec"]["nodeName"];
  CHECK(node.find("192.168.0.3") != std::string::npos);  // a GPU worker, not a master
  CHECK(master["status"]["hostIP"] == node.substr(node.find('.') + 1));
  CHECK_FALSE(master["status"].value("podIP", "").empty());
  CHECK(master["status"]["containerStatuses"][0]["state"].contains("running"));

  f.step(40s);
  job = f.get("kubeflow.org", "v1", "pytorchjobs", "pytorch-dist");
  const json* done = find_condition(job, "Succeeded");
  REQUIRE(done != nullptr);
  CHECK((*done)["status"] == "True");
  CHECK((*done)["reason"] == "PyTorchJobSucceeded");
  CHECK((*find_condition(job, "Running"))["status"] == "False");
  CHECK(job["status"].contains("completionTime"));
  CHECK(job["status"]["replicaStatuses"]["Master"]["succeeded"] == 1);
  CHECK(phase(f.pod("pytorch-dist-master-0")) == "Succeeded");
  CHECK(f.pod("pytorch-dist-master-0")["status"]["containerStatuses"][0]["state"]["terminated"]["exitCode"] ==
        0);

  // Logs: the PyTorch example's header and footer, every progress line numbered in order.
  auto lines = f.logs.lines("default", "pytorch-dist-master-0", "pytorch");
  REQUIRE(lines.size() > 10);
  CHECK(lines.front().text == "WORLD_SIZE: 3, CURRENT_RANK: 0");
  CHECK(lines.back().text == "accuracy=0.9904");
  CHECK(f.logs.closed("default", "pytorch-dist-master-0", "pytorch"));
  CHECK(f.logs.lines("default", "pytorch-dist-worker-0", "pytorch").front().text ==
        "WORLD_SIZE: 3, CURRENT_RANK: 1");
  size_t numbered = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    auto pos = lines[i].text.rfind(" step=");
    if (pos == std::string::npos) continue;
    ++numbered;
    CHECK(std::stoul(lines[i].text.substr(pos + 6)) == i + 1);
    if (i > 0) CHECK(lines[i].time >= lines[i - 1].time);
  }
  CHECK(numbered == 27);  // 30 lines in 30 s minus the three header lines
  CHECK(lines[3].text.rfind("Train Epoch: 1 [0/60000 (0%)] loss=", 0) == 0);
  // kubeflow/training-operator v1.9.0 examples/pytorch/mnist/mnist.py under DDP: each of the 3
  // ranks has a DistributedSampler shard of 20000 samples, 313 batches of 64; every 10th batch
  // prints batch_idx * 64 of len(dataset) and 100 * batch_idx / 313 %: the last is batch 310.
  CHECK(lines[29].text.rfind("Train Epoch: 10 [19840/60000 (99%)] loss=", 0) == 0);
}

TEST_CASE("each rank of a PyTorchJob logs its own progress and loss", "[controllers][pytorch]") {
  SimFixture f;
  f.create("kubeflow.org", "v1", "pytorchjobs", pytorch_job("ranks", 2));
  f.step(40s);
  // The part of a progress line before " loss=", and the loss.
  auto split = [](const std::string& line) {
    const auto at = line.find(" loss=");
    REQUIRE(at != std::string::npos);
    return std::make_pair(line.substr(0, at), line.substr(at + 6, line.find(' ', at + 6) - at - 6));
  };
  std::vector<std::vector<std::string>> logs;
  for (const char* pod : {"ranks-master-0", "ranks-worker-0", "ranks-worker-1"}) {
    logs.emplace_back();
    for (const auto& l : f.logs.lines("default", pod, "pytorch")) logs.back().push_back(l.text);
    REQUIRE(logs.back().size() == 32);  // 3 header lines, 27 progress lines, "" and accuracy
  }
  for (int r = 0; r < 3; ++r) CHECK(logs[r][0] == "WORLD_SIZE: 3, CURRENT_RANK: " + std::to_string(r));
  int differ = 0;
  for (size_t i = 3; i < 30; ++i) {
    const auto m = split(logs[0][i]), w0 = split(logs[1][i]), w1 = split(logs[2][i]);
    // The ranks step together through their own shards: the same batch, each its own loss.
    CHECK(m.first == w0.first);
    CHECK(m.first == w1.first);
    if (m.second != w0.second && m.second != w1.second && w0.second != w1.second) ++differ;
  }
  CHECK(differ >= 25);
  // The loss falls as the job trains.
  CHECK(std::stod(split(logs[1][3]).second) > 1.0);
  CHECK(std::stod(split(logs[1][29]).second) < 0.1);
}

TEST_CASE("a long run logs at a smaller interval rather than a batch twice", "[controllers][pytorch]") {
  const json container = {
      {"name", "pytorch"},
      {"command", json::array({"python", "mnist.py", "--epochs", "10"})},
      {"env", json::array({{{"name", "WORLD_SIZE"}, {"value", "3"}}, {{"name", "RANK"}, {"value", "1"}}})}};
  // Ten minutes at a line a second: 597 progress lines, more than the 320 that every 10th of
  // 313 batches for 10 epochs gives; every 5th gives 630.
  const TrainingLog log({{"metadata", {{"name", "p"}}}}, container, 600);
  CHECK(log.line(0) == "WORLD_SIZE: 3, CURRENT_RANK: 1");
  CHECK(log.line(1).find(", log_interval=5, ") != std::string::npos);
  std::set<std::string> batches;
  for (size_t n = 3; n < 600; ++n) {
    const std::string l = log.line(n);
    const auto open = l.find('['), slash = l.find('/');
    REQUIRE(open != std::string::npos);
    CHECK(std::stoul(l.substr(open + 1, slash - open - 1)) % (5 * 64) == 0);
    CHECK(batches.insert(l.substr(0, l.find(" loss="))).second);
  }
}

TEST_CASE("a failing PyTorchJob gets Failed", "[controllers][pytorch]") {
  SimFixture f;
  // A Master that is not restarted (as trainctl renders it) fails the job.
  json broken = pytorch_job("broken", 1, "fail");
  broken["spec"]["pytorchReplicaSpecs"]["Master"]["restartPolicy"] = "Never";
  f.create("kubeflow.org", "v1", "pytorchjobs", broken);
  // With OnFailure, ReconcilePods deletes the Failed pod and makes it again: Restarting.
  f.create("kubeflow.org", "v1", "pytorchjobs", pytorch_job("retried", 1, "fail"));
  f.step(5s);
  const std::string first_uid = f.pod("retried-master-0")["metadata"]["uid"];
  f.step(60s);
  CHECK(f.pod("retried-master-0")["metadata"]["uid"] != first_uid);
  CHECK(find_condition(f.get("kubeflow.org", "v1", "pytorchjobs", "retried"), "Failed") == nullptr);
  bool restarting_event = false;
  for (const auto& e : f.list("", "v1", "events"))
    restarting_event |= e["involvedObject"].value("name", "") == "retried" &&
                        e.value("message", "") == "job retried is restarting because Master replica(s) failed.";
  CHECK(restarting_event);
  json job = f.get("kubeflow.org", "v1", "pytorchjobs", "broken");
  const json* failed = find_condition(job, "Failed");
  REQUIRE(failed != nullptr);
  CHECK((*failed)["reason"] == "PyTorchJobFailed");
  CHECK((*failed)["message"] == "PyTorchJob broken is failed because 1 Master replica(s) failed.");
  CHECK(find_condition(job, "Succeeded") == nullptr);
  CHECK(job["status"].contains("completionTime"));
  CHECK(phase(f.pod("broken-master-0")) == "Failed");
  auto lines = f.logs.lines("default", "broken-master-0", "pytorch");
  REQUIRE_FALSE(lines.empty());
  CHECK(lines.back().text.find("RuntimeError") != std::string::npos);
}

TEST_CASE("cleanPodPolicy and ttlSecondsAfterFinished", "[controllers][pytorch]") {
  SimFixture f;
  json job = pytorch_job("clean", 1);
  job["spec"]["runPolicy"] = {{"cleanPodPolicy", "All"}, {"ttlSecondsAfterFinished", 60}};
  f.create("kubeflow.org", "v1", "pytorchjobs", job);
  f.step(40s);
  CHECK(f.find("kubeflow.org", "v1", "pytorchjobs", "clean"));
  CHECK_FALSE(f.find("", "v1", "pods", "clean-master-0"));
  CHECK_FALSE(f.find("", "v1", "pods", "clean-worker-0"));
  f.step(70s);
  CHECK_FALSE(f.find("kubeflow.org", "v1", "pytorchjobs", "clean"));
}

TEST_CASE("crash-looping PyTorchJob fails at its backoffLimit", "[controllers][pytorch]") {
  SimFixture f;
  json job = pytorch_job("crashy", 1, "crash");
  job["spec"]["runPolicy"] = {{"backoffLimit", 2}};
  f.create("kubeflow.org", "v1", "pytorchjobs", job);
  f.step(45s);
  json pod = f.pod("crashy-master-0");
  CHECK(pod["status"]["containerStatuses"][0]["restartCount"] >= 1);
  f.step(120s);
  job = f.get("kubeflow.org", "v1", "pytorchjobs", "crashy");
  const json* failed = find_condition(job, "Failed");
  REQUIRE(failed != nullptr);
  CHECK((*failed)["message"] == "Job crashy has failed because it has reached the specified backoff limit");
}

TEST_CASE("activeDeadlineSeconds fails a running PyTorchJob", "[controllers][pytorch]") {
  SimFixture f;
  json job = pytorch_job("slow", 1, "run-forever");
  job["spec"]["runPolicy"] = {{"activeDeadlineSeconds", 20}};
  f.create("kubeflow.org", "v1", "pytorchjobs", job);
  f.step(10s);
  CHECK(find_condition(f.get("kubeflow.org", "v1", "pytorchjobs", "slow"), "Failed") == nullptr);
  f.step(15s);
  const json slow = f.get("kubeflow.org", "v1", "pytorchjobs", "slow");
  const json* failed = find_condition(slow, "Failed");
  REQUIRE(failed != nullptr);
  CHECK((*failed)["message"] == "Job slow has failed because it was active longer than specified deadline");
}

TEST_CASE("restartPolicy ExitCode restarts a replica that died with a retryable code",
          "[controllers][pytorch]") {
  SimFixture f;
  json job = pytorch_job("flaky", 1, "crash");
  job["spec"]["pytorchReplicaSpecs"]["Worker"]["restartPolicy"] = "ExitCode";
  job["spec"]["pytorchReplicaSpecs"]["Master"]["restartPolicy"] = "ExitCode";
  f.create("kubeflow.org", "v1", "pytorchjobs", job);
  f.step(0ms);
  const std::string first_uid = f.pod("flaky-worker-0")["metadata"]["uid"];
  CHECK(f.pod("flaky-worker-0")["spec"]["restartPolicy"] == "Never");
  f.step(33s);  // containers exit 137 after 30 s of running
  json st = f.get("kubeflow.org", "v1", "pytorchjobs", "flaky");
  const json* restarting = find_condition(st, "Restarting");
  REQUIRE(restarting != nullptr);
  CHECK((*restarting)["reason"] == "PyTorchJobRestarting");
  CHECK(find_condition(st, "Failed") == nullptr);
  // The failed pod was replaced by a new one of the same name.
  CHECK(f.pod("flaky-worker-0")["metadata"]["uid"] != first_uid);
  CHECK(phase(f.pod("flaky-worker-0")) != "Failed");
}
