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
    // The job controller may not have written a status yet.
    complete = j && j->value("status", json::object()).value("succeeded", 0) == 1;
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

TEST_CASE("with the real clock one round happens at one instant, however long it takes",
          "[controllers][clock][mpi]") {
  // At a million simulated seconds per real second, every microsecond a round spends would
  // move the clock a second: an AtStartup MPIJob's launcher pod, created by the Job controller
  // after the workers in the same round, would start after them and find them resolvable.
  Store store;
  LogStore logs;
  Simulation::ensure_types(store);
  load_seed_file(store, std::string(TRAINCTL_SOURCE_DIR) + "/tools/kubesim/seeds/demo.yaml");
  SimulationOptions opt;
  opt.speed = 1e6;
  Simulation sim(store, logs, opt);  // not started: step() runs one round on the real clock
  auto replica = [](const std::string& name, json command) {
    json c = {{"name", name}, {"image", "mpioperator/mpi-pi:openmpi"}};
    if (!command.is_null()) c["command"] = std::move(command);
    return json{{"replicas", name == "launcher" ? 1 : 2},
                {"template", {{"spec", {{"containers", json::array({c})}}}}}};
  };
  json job = {{"apiVersion", "kubeflow.org/v2beta1"},
              {"kind", "MPIJob"},
              {"metadata", {{"name", "instant"}, {"namespace", "default"}}},
              {"spec",
               {{"launcherCreationPolicy", "AtStartup"},
                {"mpiReplicaSpecs",
                 {{"Launcher", replica("launcher", json::array({"mpirun", "-n", "2", "/home/mpiuser/pi"}))},
                  {"Worker", replica("worker", nullptr)}}}}}};
  store.create(*store.find("kubeflow.org", "v2beta1", "mpijobs"), job);
  const auto before = sim.now();
  sim.step(0ms);
  const auto pods = store.list(*store.find("", "v1", "pods"), "default").items;
  REQUIRE(pods.size() == 3);  // two workers and the launcher Job's pod
  std::set<std::string> created, started;
  for (const auto& p : pods) {
    created.insert((*p)["metadata"].value("creationTimestamp", ""));
    started.insert(p->value("status", json::object()).value("startTime", ""));
  }
  CHECK(created.size() == 1);
  CHECK(started.size() == 1);
  CHECK(*started.begin() != "");  // the kubelets took them up in that round
  CHECK(sim.now() > before);      // and the clock moves on between rounds
}

// kubernetes pkg/controller/ttlafterfinished/ttlafterfinished_controller.go jobFinishTime: a
// finished Job's time is its Complete or Failed condition's lastTransitionTime; without one
// the controller errors and the Job stays (it does not fall back on completionTime).
TEST_CASE("batch Job TTL: counted from the finish condition's time; none, and the job stays",
          "[controllers][clock]") {
  SimFixture f;
  auto finished = [](const std::string& name, bool with_time) {
    json complete = {{"type", "Complete"}, {"status", "True"}};
    if (with_time) complete["lastTransitionTime"] = "2023-01-01T00:00:00Z";
    return json{{"apiVersion", "batch/v1"},
                {"kind", "Job"},
                {"metadata", {{"name", name}, {"namespace", "default"}}},
                {"spec",
                 {{"ttlSecondsAfterFinished", 5},
                  {"template",
                   {{"metadata", {{"labels", {{"job-name", name}, {"controller-uid", "u"}}}}},
                    {"spec",
                     {{"restartPolicy", "Never"},
                      {"containers", json::array({gpu_container("c", "python train.py", 0)})}}}}}}},
                {"status",
                 {{"succeeded", 1},
                  {"completionTime", "2023-01-01T00:00:00Z"},
                  {"conditions", json::array({complete})}}}};
  };
  f.create("batch", "v1", "jobs", finished("timed", true));
  f.create("batch", "v1", "jobs", finished("untimed", false));
  for (int i = 0; i < 10; ++i) f.step(2s);  // the simulation's clock is in 2023-11
  CHECK_FALSE(f.find("batch", "v1", "jobs", "timed"));
  CHECK(f.find("batch", "v1", "jobs", "untimed"));
}
