// The real clock (speed factor, background thread) and gang scheduling of training jobs.
#include <thread>

#include "test_controllers_fixture.h"

using namespace kubesim;
using namespace kubesim::testing;

TEST_CASE("with the real clock a job runs to completion in the background", "[controllers][clock]") {
  Store store;
  LogStore logs;
  Simulation::ensure_types(store);
  load_seed_file(store, std::string(TRAINCTL_SOURCE_DIR) + "/tools/kubesim/seeds/demo.yaml");
  SimulationOptions opt;
  opt.speed = 50;  // 50 simulated seconds per real second
  opt.tick = 20ms;
  Simulation sim(store, logs, opt);
  sim.start();
  const auto t0 = sim.now();
  json job = {{"apiVersion", "batch/v1"},
              {"kind", "Job"},
              {"metadata",
               {{"name", "quick"},
                {"namespace", "default"},
                {"annotations", {{"kubesim.trainctl.io/duration", "10s"}}}}},
              {"spec",
               {{"template",
                 {{"spec",
                   {{"restartPolicy", "Never"},
                    {"containers", json::array({gpu_container("c", "python train.py", 1)})}}}}}}}};
  store.create(*store.find("batch", "v1", "jobs"), job);
  bool complete = false;
  // Polls for at most 30 s of real time; the job needs about 12 simulated seconds.
  for (int i = 0; i < 300 && !complete; ++i) {
    std::this_thread::sleep_for(100ms);
    auto j = store.get(*store.find("batch", "v1", "jobs"), "default", "quick");
    complete = j && (*j)["status"].value("succeeded", 0) == 1;
  }
  sim.stop();
  CHECK(complete);
  CHECK(sim.now() - t0 >= 12s);  // simulated time moved faster than real time
}

TEST_CASE("PyTorchJob schedulingPolicy.minAvailable creates a PodGroup and gangs its pods",
          "[controllers][pytorch][scheduler]") {
  SimFixture f;
  json tmpl = {{"spec", {{"containers", json::array({gpu_container("pytorch", "python train.py", 2)})}}}};
  json job = {{"apiVersion", "kubeflow.org/v1"},
              {"kind", "PyTorchJob"},
              {"metadata", {{"name", "gang"}, {"namespace", "default"}}},
              {"spec",
               {{"runPolicy", {{"schedulingPolicy", {{"minAvailable", 4}}}}},
                {"pytorchReplicaSpecs",
                 {{"Master", {{"replicas", 1}, {"template", tmpl}}},
                  {"Worker", {{"replicas", 3}, {"template", tmpl}}}}}}}};
  f.create("kubeflow.org", "v1", "pytorchjobs", job);
  f.step(5s);
  json pg = f.get("scheduling.volcano.sh", "v1beta1", "podgroups", "gang");
  CHECK(pg["spec"]["minMember"] == 4);
  json master = f.pod("gang-master-0");
  CHECK(master["metadata"]["annotations"]["scheduling.k8s.io/group-name"] == "gang");
  CHECK(master["spec"]["schedulerName"] == "volcano");
  // 4 pods x 2 GPUs do not fit on 6 GPUs: none starts.
  for (const char* name : {"gang-master-0", "gang-worker-0", "gang-worker-1", "gang-worker-2"})
    CHECK(f.pod(name)["spec"].value("nodeName", "") == "");
  CHECK(find_condition(f.get("kubeflow.org", "v1", "pytorchjobs", "gang"), "Running") == nullptr);
}
