// The distributed contract through kubesim's operators and kubelets: one job per rule whose
// ranks cannot meet, that stays Running while its launcher waits and then fails with the
// launcher's own message; and beside each, the same job with the contract kept, training.
// kubesim runs with --rendezvous-timeout 30s (PyTorch's own defaults are 10 to 30 minutes).
#include "test_controllers_fixture.h"

using namespace kubesim;
using namespace kubesim::testing;

namespace {

SimulationOptions short_timeouts() {
  SimulationOptions o;
  o.rendezvous_timeout = std::chrono::seconds(30);
  return o;
}

json annotations() { return {{"kubesim.trainctl.io/duration", "20s"}}; }

json container(const std::string& script, json env = json::array()) {
  return {{"name", "pytorch"},
          {"image", "pytorch/pytorch"},
          {"command", json::array({"sh", "-c", script})},
          {"env", std::move(env)}};
}

// A PyTorchJob: Master (restartPolicy Never, as trainctl renders it) and `workers` Workers.
json rdzv_pytorch_job(const std::string& name, int workers, const std::string& script, json extra_spec = json::object()) {
  json tmpl = {{"spec", {{"containers", json::array({container(script)})}}}};
  json spec = {{"pytorchReplicaSpecs",
                {{"Master", {{"replicas", 1}, {"restartPolicy", "Never"}, {"template", tmpl}}},
                 {"Worker", {{"replicas", workers}, {"restartPolicy", "OnFailure"}, {"template", tmpl}}}}}};
  for (auto it = extra_spec.begin(); it != extra_spec.end(); ++it) spec[it.key()] = *it;
  return {{"apiVersion", "kubeflow.org/v1"},
          {"kind", "PyTorchJob"},
          {"metadata", {{"name", name}, {"namespace", "default"}, {"annotations", annotations()}}},
          {"spec", spec}};
}

// An operator-free job: an Indexed Job whose pods are NAME-I.NAME through a headless Service
// of the same name (the Service only when with_service).
void indexed_job(SimFixture& f, const std::string& name, int n, const std::string& script, json env = json::array(),
                 bool with_service = true) {
  json tmpl = {{"metadata", {{"labels", {{"app", name}}}}},
               {"spec", {{"restartPolicy", "Never"}, {"subdomain", name}, {"containers", json::array({container(script, env)})}}}};
  f.create("batch", "v1", "jobs",
           {{"apiVersion", "batch/v1"},
            {"kind", "Job"},
            {"metadata", {{"name", name}, {"namespace", "default"}, {"annotations", annotations()}}},
            {"spec",
             {{"completionMode", "Indexed"},
              {"completions", n},
              {"parallelism", n},
              {"backoffLimit", 0},
              {"template", tmpl}}}});
  if (with_service)
    f.create("", "v1", "services",
             {{"apiVersion", "v1"},
              {"kind", "Service"},
              {"metadata", {{"name", name}, {"namespace", "default"}}},
              {"spec", {{"clusterIP", "None"}, {"publishNotReadyAddresses", true}, {"selector", {{"app", name}}}}}});
}

json indexed_pod(SimFixture& f, const std::string& job, int index) {
  for (const auto& p : f.list("", "v1", "pods"))
    if (p["metadata"]["labels"].value("job-name", "") == job &&
        p["metadata"]["annotations"].value("batch.kubernetes.io/job-completion-index", "") == std::to_string(index))
      return p;
  FAIL("no pod " << job << "-" << index);
  return {};
}

std::vector<std::string> log_of(SimFixture& f, const json& pod, const std::string& container = "pytorch") {
  std::vector<std::string> out;
  for (const auto& l : f.logs.lines("default", pod["metadata"]["name"], container)) out.push_back(l.text);
  return out;
}

bool has_line(const std::vector<std::string>& lines, const std::string& text) {
  return std::find(lines.begin(), lines.end(), text) != lines.end();
}

// The first container's exit code, -1 while it has not terminated (or has no status yet).
int exit_code(const json& pod) {
  const json st = pod.value("status", json::object());
  const json cs = st.value("containerStatuses", json::array());
  if (!cs.is_array() || cs.empty() || !cs[0].is_object()) return -1;
  const json state = cs[0].value("state", json::object());
  if (!state.is_object() || !state.contains("terminated") || !state["terminated"].is_object()) return -1;
  return state["terminated"].value("exitCode", -1);
}

std::string job_condition(SimFixture& f, const std::string& name) {
  const json st = f.get("batch", "v1", "jobs", name)["status"];
  for (const auto& c : st.value("conditions", json::array()))
    if (c.value("status", "") == "True") return c.value("type", "") + "/" + c.value("reason", "");
  return "";
}

}  // namespace

TEST_CASE("WORLD_SIZE counts processes: nprocPerNode 4 with a plain python script hangs, then fails",
          "[rendezvous][contract][pytorch]") {
  SimFixture f(true, short_timeouts());
  f.create("kubeflow.org", "v1", "pytorchjobs",
           rdzv_pytorch_job("np4", 1, "python /root/mnist.py --epochs 2", {{"nprocPerNode", "4"}}));
  f.create("kubeflow.org", "v1", "pytorchjobs", rdzv_pytorch_job("npauto", 1, "python /root/mnist.py --epochs 2"));
  f.step(20s);
  // Waiting: Running, no training line; the job is Running too.
  CHECK(phase(f.pod("np4-master-0")) == "Running");
  CHECK(log_of(f, f.pod("np4-master-0")).empty());
  CHECK((*find_condition(f.get("kubeflow.org", "v1", "pytorchjobs", "np4"), "Running"))["status"] == "True");
  f.step(20s);
  const json master = f.pod("np4-master-0");
  CHECK(phase(master) == "Failed");
  CHECK(exit_code(master) == 1);
  CHECK(log_of(f, master).back() ==
        "torch.distributed.DistStoreError: Timed out after 31 seconds waiting for clients. 2/8 clients joined.");
  // The worker (OnFailure) gave up too ("Socket Timeout", see the judge's tests); the operator
  // deleted it to make it again, then the Master's failure failed the job.
  bool worker_restarted = false;
  for (const auto& e : f.list("", "v1", "events"))
    worker_restarted |= e.value("message", "") == "job np4 is restarting because Worker replica(s) failed.";
  CHECK(worker_restarted);
  const json job = f.get("kubeflow.org", "v1", "pytorchjobs", "np4");
  REQUIRE(find_condition(job, "Failed") != nullptr);
  CHECK((*find_condition(job, "Failed"))["message"] == "PyTorchJob np4 is failed because 1 Master replica(s) failed.");
  // nprocPerNode "auto": WORLD_SIZE = 2 processes, one per pod: it trains.
  const json ok = f.get("kubeflow.org", "v1", "pytorchjobs", "npauto");
  CHECK(find_condition(ok, "Succeeded") != nullptr);
  CHECK(log_of(f, f.pod("npauto-master-0")).back() == "accuracy=0.9904");
}

TEST_CASE("the ranks start training together, once the last one can reach the store",
          "[rendezvous][contract][pytorch]") {
  SimFixture f(true, short_timeouts());
  f.create("kubeflow.org", "v1", "pytorchjobs",
           rdzv_pytorch_job("together", 2, "torchrun --nproc-per-node=2 train.py", {{"nprocPerNode", "2"}}));
  f.step(40s);
  CHECK(find_condition(f.get("kubeflow.org", "v1", "pytorchjobs", "together"), "Succeeded") != nullptr);
  std::set<int64_t> first_line;
  TimePoint last_ready{};
  for (const char* name : {"together-master-0", "together-worker-0", "together-worker-1"}) {
    const json p = f.pod(name);
    auto lines = f.logs.lines("default", name, "pytorch");
    REQUIRE_FALSE(lines.empty());
    first_line.insert(std::chrono::duration_cast<std::chrono::seconds>(lines.front().time.time_since_epoch()).count());
    // When its container started (and the pod became Ready): the pods have finished since, so
    // the Ready conditions now carry the time they ended.
    const json& terminated = p["status"]["containerStatuses"][0]["state"]["terminated"];
    REQUIRE(terminated.is_object());
    last_ready = std::max(last_ready, parse_time(terminated["startedAt"]));
  }
  // The workers waited for their init container; everyone began when the last name resolved.
  CHECK(first_line.size() == 1);
  CHECK(*first_line.begin() >=
        std::chrono::duration_cast<std::chrono::seconds>(last_ready.time_since_epoch()).count());
}

TEST_CASE("torchrun --nnodes=2 without a master address: every pod is rank 0 on 127.0.0.1 and waits alone",
          "[rendezvous][contract][torchrun]") {
  SimFixture f(true, short_timeouts());
  indexed_job(f, "bare", 2, "torchrun --nnodes=2 --nproc-per-node=1 train.py");
  f.step(20s);
  CHECK(phase(indexed_pod(f, "bare", 0)) == "Running");
  f.step(20s);
  for (int i = 0; i < 2; ++i) {
    const json p = indexed_pod(f, "bare", i);
    CHECK(phase(p) == "Failed");
    CHECK(log_of(f, p).back() ==
          "torch.distributed.DistStoreError: Timed out after 31 seconds waiting for clients. 1/2 clients joined.");
  }
  CHECK(job_condition(f, "bare") == "Failed/BackoffLimitExceeded");
}

TEST_CASE("the master address must resolve: NAME-0.NAME needs the headless Service NAME",
          "[rendezvous][contract][dns]") {
  SimFixture f(true, short_timeouts());
  indexed_job(f, "good", 2, "torchrun --nnodes=2 --node_rank=$JOB_COMPLETION_INDEX --master_addr=good-0.good train.py");
  indexed_job(f, "nosvc", 2, "torchrun --nnodes=2 --node_rank=$JOB_COMPLETION_INDEX --master_addr=nosvc-0.nosvc train.py",
              json::array(), false);
  f.step(40s);
  CHECK(job_condition(f, "good") == "Complete/");
  const json rank1 = indexed_pod(f, "nosvc", 1);
  CHECK(phase(rank1) == "Failed");
  const auto lines = log_of(f, rank1);
  REQUIRE(lines.size() >= 2);
  CHECK(lines.front() ==
        "[W socket.cpp] [c10d] The IPv6 network addresses of (nosvc-0.nosvc, 29500) cannot be retrieved "
        "(gai error: -2 - Name or service not known).");
  CHECK(lines.back() ==
        "torch.distributed.DistNetworkError: The client socket has timed out after 30000ms while trying to "
        "connect to (nosvc-0.nosvc, 29500).");
  CHECK(job_condition(f, "nosvc") == "Failed/BackoffLimitExceeded");
}

TEST_CASE("the master address must name the rank-0 node", "[rendezvous][contract][torchrun]") {
  SimFixture f(true, short_timeouts());
  indexed_job(f, "wrong", 2, "torchrun --nnodes=2 --node_rank=$JOB_COMPLETION_INDEX --master_addr=wrong-1.wrong train.py");
  f.step(40s);
  const json rank0 = indexed_pod(f, "wrong", 0);
  CHECK(phase(rank0) == "Failed");
  const auto lines = log_of(f, rank0);
  // Both pods start at once: wrong-1's address is published a second later, then the name
  // resolves but nothing listens there.
  CHECK(lines.front() ==
        "[W socket.cpp] [c10d] The IPv6 network addresses of (wrong-1.wrong, 29500) cannot be retrieved "
        "(gai error: -2 - Name or service not known).");
  CHECK(has_line(lines, "[I socket.cpp] [c10d] No socket on (wrong-1.wrong, 29500) is listening yet, will retry."));
  CHECK(lines.back() ==
        "torch.distributed.DistNetworkError: The client socket has timed out after 30000ms while trying to "
        "connect to (wrong-1.wrong, 29500).");
}

TEST_CASE("node ranks must be unique and cover 0..N-1", "[rendezvous][contract][torchrun]") {
  SimFixture f(true, short_timeouts());
  indexed_job(f, "dup", 2, "torchrun --nnodes=2 --node_rank=0 --master_addr=dup-0.dup train.py");
  f.step(40s);
  for (int i = 0; i < 2; ++i) {
    const json p = indexed_pod(f, "dup", i);
    CHECK(phase(p) == "Failed");
    CHECK(log_of(f, p).back() == "torch.distributed.DistStoreError: Socket Timeout");
  }
}

TEST_CASE("env:// without MASTER_ADDR fails at once", "[rendezvous][contract][env]") {
  SimFixture f(true, short_timeouts());
  json env = json::array({{{"name", "WORLD_SIZE"}, {"value", "2"}},
                          {{"name", "MASTER_PORT"}, {"value", "23456"}},
                          {{"name", "RANK"},
                           {"valueFrom",
                            {{"fieldRef",
                              {{"fieldPath", "metadata.annotations['batch.kubernetes.io/job-completion-index']"}}}}}}});
  indexed_job(f, "noaddr", 2, "python train.py", env);
  f.step(5s);  // containers start after 2 s
  const json p = indexed_pod(f, "noaddr", 0);
  CHECK(phase(p) == "Failed");
  CHECK(log_of(f, p).back() ==
        "ValueError: Error initializing torch.distributed using env:// rendezvous: environment variable "
        "MASTER_ADDR expected, but not set");
  CHECK(job_condition(f, "noaddr") == "Failed/BackoffLimitExceeded");
}

TEST_CASE("an operator-free job's ranks train with the RANK of their completion index", "[rendezvous][env]") {
  SimFixture f(true, short_timeouts());
  json env = json::array(
      {{{"name", "WORLD_SIZE"}, {"value", "2"}},
       {{"name", "MASTER_ADDR"}, {"value", "ranked-0.ranked"}},
       {{"name", "MASTER_PORT"}, {"value", "23456"}},
       {{"name", "RANK"},
        {"valueFrom",
         {{"fieldRef",
           {{"fieldPath", "metadata.annotations['batch.kubernetes.io/job-completion-index']"}}}}}}});
  indexed_job(f, "ranked", 2, "python train.py", env);
  f.step(40s);
  CHECK(job_condition(f, "ranked") == "Complete/");
  // The downward API gives each pod its index as RANK, and the script prints it (after what
  // the rendezvous may have logged while it waited).
  const auto rank0 = log_of(f, indexed_pod(f, "ranked", 0)), rank1 = log_of(f, indexed_pod(f, "ranked", 1));
  CHECK(has_line(rank0, "WORLD_SIZE: 2, CURRENT_RANK: 0"));
  CHECK(has_line(rank1, "WORLD_SIZE: 2, CURRENT_RANK: 1"));
  CHECK_FALSE(has_line(rank1, "WORLD_SIZE: 2, CURRENT_RANK: 0"));
  CHECK(rank1.back() == "accuracy=0.9904");
}

TEST_CASE("torchrun's c10d rendezvous: the elastic PyTorchJob's endpoint, and one that does not resolve",
          "[rendezvous][contract][c10d]") {
  SimFixture f(true, short_timeouts());
  json elastic = rdzv_pytorch_job("el", 1, "torchrun train.py",
                             {{"elasticPolicy", {{"minReplicas", 2}, {"maxReplicas", 2}, {"rdzvBackend", "c10d"}}}});
  elastic["spec"]["pytorchReplicaSpecs"].erase("Master");
  elastic["spec"]["pytorchReplicaSpecs"]["Worker"]["replicas"] = 2;
  f.create("kubeflow.org", "v1", "pytorchjobs", elastic);
  indexed_job(f, "lost", 2, "torchrun --nnodes=2 --rdzv-backend=c10d --rdzv-endpoint=lost-master:29400 train.py");
  f.step(40s);
  CHECK(find_condition(f.get("kubeflow.org", "v1", "pytorchjobs", "el"), "Succeeded") != nullptr);
  const auto lines = log_of(f, indexed_pod(f, "lost", 0));
  CHECK(lines.back() ==
        "torch.distributed.elastic.rendezvous.api.RendezvousConnectionError: The connection to the C10d store "
        "has failed. See inner exception for details.");
  CHECK(has_line(lines,
                 "torch.distributed.DistNetworkError: The client socket has timed out after 30000ms while trying "
                 "to connect to (lost-master, 29400)."));
}

TEST_CASE("commands kubesim cannot judge run as before", "[rendezvous][contract]") {
  SimFixture f(true, short_timeouts());
  f.create("kubeflow.org", "v1", "pytorchjobs", rdzv_pytorch_job("wrapped", 1, "bash /root/run.sh", {{"nprocPerNode", "4"}}));
  f.step(30s);
  CHECK(find_condition(f.get("kubeflow.org", "v1", "pytorchjobs", "wrapped"), "Succeeded") != nullptr);
}

namespace {

json mpi_job(const std::string& name, const std::string& policy, int backoff_limit) {
  json launcher = {{"spec",
                    {{"containers", json::array({{{"name", "launcher"},
                                                  {"image", "mpioperator/mpi-pi:openmpi"},
                                                  {"command", json::array({"mpirun", "-n", "2", "/home/mpiuser/pi"})}}})}}}};
  json worker = {{"spec", {{"containers", json::array({{{"name", "worker"}, {"image", "mpioperator/mpi-pi:openmpi"}}})}}}};
  return {{"apiVersion", "kubeflow.org/v2beta1"},
          {"kind", "MPIJob"},
          {"metadata", {{"name", name}, {"namespace", "default"}, {"annotations", annotations()}}},
          {"spec",
           {{"launcherCreationPolicy", policy},
            {"runPolicy", {{"backoffLimit", backoff_limit}}},
            {"mpiReplicaSpecs",
             {{"Launcher", {{"replicas", 1}, {"template", launcher}}},
              {"Worker", {{"replicas", 2}, {"template", worker}}}}}}}};
}

}  // namespace

TEST_CASE("mpirun needs its workers resolvable when the launcher starts: AtStartup with backoffLimit 0 fails",
          "[rendezvous][contract][mpi]") {
  SimFixture f;
  f.create("kubeflow.org", "v2beta1", "mpijobs", mpi_job("early", "AtStartup", 0));
  f.create("kubeflow.org", "v2beta1", "mpijobs", mpi_job("ready", "WaitForWorkersReady", 0));
  f.step(40s);
  json launcher;
  for (const auto& p : f.list("", "v1", "pods"))
    if (p["metadata"]["labels"].value("job-name", "") == "early-launcher") launcher = p;
  REQUIRE(launcher.is_object());
  CHECK(phase(launcher) == "Failed");
  CHECK(exit_code(launcher) == 255);
  const auto lines = log_of(f, launcher, "launcher");
  CHECK(has_line(lines, "ssh: Could not resolve hostname early-worker-0.early.default.svc: Name or service not known"));
  CHECK(has_line(lines, "ssh: Could not resolve hostname early-worker-1.early.default.svc: Name or service not known"));
  CHECK(has_line(lines, "ORTE was unable to reliably start one or more daemons."));
  const json early = f.get("kubeflow.org", "v2beta1", "mpijobs", "early");
  REQUIRE(find_condition(early, "Failed") != nullptr);
  CHECK((*find_condition(early, "Failed"))["reason"].get<std::string>().rfind("BackoffLimitExceeded", 0) == 0);
  // WaitForWorkersReady: the launcher starts after its workers were published.
  CHECK(find_condition(f.get("kubeflow.org", "v2beta1", "mpijobs", "ready"), "Succeeded") != nullptr);
}
