// The TrainJob controller on Trainer v2.3.0's own runtimes (trainjob_controller.go, jobset.go
// Status, snapshot.go): the JobSet, its Jobs, pods and Service; the conditions with upstream's
// reasons and messages; jobsStatus; suspend and resume; the runtime snapshot; the deadline; the
// reconcile error event; kubesim's fates reaching the pods; the progress reports of the
// TrainJobStatus gate.
#include "trainer_fixture.h"

#include "kubesim/controllers/trainer_status_report.h"

using namespace kubesim;
using namespace kubesim::testing;
using namespace std::chrono_literals;

namespace {

json torch_spec(int nodes, json trainer_extra = json::object()) {
  json trainer = torch_trainer(nodes);
  for (const auto& [k, v] : trainer_extra.items()) trainer[k] = v;
  return {{"runtimeRef", {{"name", "torch-distributed"}}}, {"trainer", trainer}};
}

}  // namespace

TEST_CASE("trainjob: two torch nodes train and the TrainJob completes as the JobSet did", "[trainer][trainjob]") {
  TrainerSim f;
  TRAINER_RUNTIMES_OR_SKIP(f.store);
  // torchrun without python in its command still runs a training script.
  f.train_job("mnist", torch_spec(2, {{"command", {"torchrun", "/workspace/mnist.py"}}}),
              {{"kubesim.trainctl.io/duration", "30s"}});
  f.step(5s);
  const json js = f.jobset("mnist");
  CHECK(js["metadata"]["annotations"]["kubesim.trainctl.io/duration"] == "30s");
  const json job = f.get("batch", "v1", "jobs", "mnist-node-0");
  CHECK(job["metadata"]["labels"][kJobSetNameKey] == "mnist");
  CHECK(job["metadata"]["ownerReferences"][0]["kind"] == "JobSet");
  CHECK(job["spec"]["completionMode"] == "Indexed");
  CHECK(job["spec"]["parallelism"] == 2);
  const json svc = f.get("", "v1", "services", "mnist");
  CHECK(svc["spec"]["clusterIP"] == "None");
  CHECK(svc["spec"]["selector"] == json{{kJobSetNameKey, "mnist"}});
  CHECK(svc["spec"]["publishNotReadyAddresses"] == true);
  const auto pods = f.pods_of("mnist");
  REQUIRE(pods.size() == 2);
  CHECK(pods[0]["spec"]["hostname"] == "mnist-node-0-0");
  CHECK(pods[1]["spec"]["hostname"] == "mnist-node-0-1");
  CHECK(pods[0]["spec"]["subdomain"] == "mnist");
  CHECK(pods[1]["metadata"]["labels"]["batch.kubernetes.io/job-completion-index"] == "1");
  CHECK(pods[1]["metadata"]["labels"][kReplicatedJobNameKey] == "node");
  CHECK(pods[1]["metadata"]["annotations"]["kubesim.trainctl.io/duration"] == "30s");
  f.step(40s);
  const json tj = f.trainjob("mnist");
  const json complete = condition_of(tj, "Complete");
  REQUIRE(complete.is_object());
  CHECK(complete["reason"] == "AllJobsCompleted");
  CHECK(complete["message"] == "jobset completed successfully");
  CHECK(condition_of(tj, "Suspended").is_null());
  CHECK(tj["status"]["jobsStatus"] == json::parse(R"([{"name": "node", "ready": 0, "succeeded": 1, "failed": 0,
                                                       "active": 0, "suspended": 0}])"));
  // torchrun's worker of node rank 1 with one process: rank 1 of 2.
  CHECK(f.log_of(pods[1]).find("WORLD_SIZE: 2, CURRENT_RANK: 1") != std::string::npos);
}

TEST_CASE("trainjob: a failing node fails the JobSet and the TrainJob with the first failed Job", "[trainer][trainjob]") {
  TrainerSim f;
  TRAINER_RUNTIMES_OR_SKIP(f.store);
  // The Job's backoffLimit (6) is used up first: seven failed pods.
  f.train_job("broken", torch_spec(1), {{"kubesim.trainctl.io/outcome", "fail"}, {"kubesim.trainctl.io/duration", "5s"}});
  f.step(120s);
  const json tj = f.trainjob("broken");
  const json failed = condition_of(tj, "Failed");
  REQUIRE(failed.is_object());
  CHECK(failed["reason"] == "FailedJobs");
  CHECK(failed["message"] == "jobset failed due to one or more job failures (first failed job: broken-node-0)");
  CHECK(f.jobset("broken")["status"]["terminalState"] == "Failed");
}

TEST_CASE("trainjob: suspend deletes the pods and resume brings them back", "[trainer][trainjob]") {
  TrainerSim f;
  TRAINER_RUNTIMES_OR_SKIP(f.store);
  f.train_job("sr", torch_spec(2), {{"kubesim.trainctl.io/outcome", "run-forever"}});
  f.step(5s);
  REQUIRE(f.pods_of("sr").size() == 2);
  f.set_suspend("sr", true);
  f.step(3s);
  json tj = f.trainjob("sr");
  json suspended = condition_of(tj, "Suspended");
  REQUIRE(suspended.is_object());
  CHECK(suspended["status"] == "True");
  CHECK(suspended["reason"] == "Suspended");
  CHECK(suspended["message"] == "TrainJob is suspended");
  CHECK(f.jobset("sr")["spec"]["suspend"] == true);
  CHECK(f.get("batch", "v1", "jobs", "sr-node-0")["spec"]["suspend"] == true);
  const json js_suspended = condition_of(f.jobset("sr"), "Suspended");
  REQUIRE(js_suspended.is_object());
  CHECK(js_suspended["reason"] == "SuspendedJobs");
  CHECK(tj["status"]["jobsStatus"][0]["suspended"] == 1);
  f.step(40s);  // the pods' grace period
  CHECK(f.pods_of("sr").empty());
  f.set_suspend("sr", false);
  f.step(5s);
  tj = f.trainjob("sr");
  suspended = condition_of(tj, "Suspended");
  REQUIRE(suspended.is_object());
  CHECK(suspended["status"] == "False");
  CHECK(suspended["reason"] == "Resumed");
  CHECK(suspended["message"] == "TrainJob is resumed");
  CHECK(condition_of(f.jobset("sr"), "Suspended")["reason"] == "ResumeJobs");
  CHECK(f.pods_of("sr").size() == 2);
}

TEST_CASE("trainjob: the runtime is snapshotted; later edits of the runtime do not change the job",
          "[trainer][trainjob]") {
  TrainerSim f;
  TRAINER_RUNTIMES_OR_SKIP(f.store);
  f.train_job("snap", torch_spec(1), {{"kubesim.trainctl.io/outcome", "run-forever"}});
  f.step(1s);
  const json cm = f.get("", "v1", "configmaps", "snap-runtime-snapshot");
  CHECK(cm["metadata"]["ownerReferences"][0]["name"] == "snap");
  CHECK(cm["data"]["runtime"].get<std::string>().find("name: torch-distributed") != std::string::npos);
  // The runtime changes its image and the JobSet is deleted: the re-created JobSet keeps the snapshot's.
  f.store.mutate(*f.t.clustertrainingruntimes, "", "torch-distributed", [](json& o) {
    o["spec"]["template"]["spec"]["replicatedJobs"][0]["template"]["spec"]["template"]["spec"]["containers"][0]["image"] =
        "changed:1";
    return true;
  });
  f.store.remove(*f.t.jobsets, "default", "snap");
  f.step(2s);
  CHECK(f.jobset("snap")["spec"]["replicatedJobs"][0]["template"]["spec"]["template"]["spec"]["containers"][0]["image"] ==
        "pytorch/pytorch:2.13.0-cuda13.0-cudnn9-runtime");
}

TEST_CASE("trainjob: a runtime deleted before the first reconcile is an event, no condition", "[trainer][trainjob]") {
  TrainerSim f;
  TRAINER_RUNTIMES_OR_SKIP(f.store);
  f.store.remove(*f.t.clustertrainingruntimes, "", "jax-distributed");
  f.train_job("orphan", {{"runtimeRef", {{"name", "jax-distributed"}}}});
  f.step(1s);
  const auto events = f.events_of("orphan", "TrainJobResourcesCreationFailed");
  REQUIRE(events.size() == 1);
  CHECK(events[0]["type"] == "Warning");
  CHECK(events[0]["message"] ==
        "TrainJob resources reconciliation failed: not found ClusterTrainingRuntime specified in TrainJob: "
        "ClusterTrainingRuntime.trainer.kubeflow.org \"jax-distributed\" not found");
  CHECK(!f.trainjob("orphan").contains("status"));
  CHECK(!f.find_jobset("orphan"));
}

TEST_CASE("trainjob: a JobSet name too long for its pods is refused by JobSet's webhook", "[trainer][trainjob]") {
  TrainerSim f;
  TRAINER_RUNTIMES_OR_SKIP(f.store);
  const std::string name(50, 'n');  // <name>-node-0-0-abcde: 64 characters
  f.train_job(name, torch_spec(1));
  f.step(1s);
  const auto events = f.events_of(name, "TrainJobResourcesCreationFailed");
  REQUIRE(events.size() == 1);
  CHECK(events[0]["message"] ==
        "TrainJob resources reconciliation failed: admission webhook \"vjobset.kb.io\" denied the request: "
        "JobSet.jobset.x-k8s.io \"" + name + "\" is invalid: spec.replicatedJobs[0].name: Invalid value: \"" + name +
            "-node-0\": JobSet name is too long, pod names generated for this JobSet will exceed 63 characters");
  CHECK(!f.find_jobset(name));
}

TEST_CASE("trainjob: activeDeadlineSeconds fails it with DeadlineExceeded and deletes the JobSet", "[trainer][trainjob]") {
  TrainerSim f;
  TRAINER_RUNTIMES_OR_SKIP(f.store);
  json spec = torch_spec(1);
  spec["activeDeadlineSeconds"] = 20;
  f.train_job("late", spec, {{"kubesim.trainctl.io/outcome", "run-forever"}});
  f.step(10s);
  CHECK(f.find_jobset("late"));
  f.step(15s);
  const json failed = condition_of(f.trainjob("late"), "Failed");
  REQUIRE(failed.is_object());
  CHECK(failed["reason"] == "DeadlineExceeded");
  CHECK(failed["message"] == "TrainJob exceeded its active deadline");
  CHECK(!f.find_jobset("late"));
}

TEST_CASE("trainjob: another managedBy and an unsupported runtime kind are left alone", "[trainer][trainjob]") {
  TrainerSim f;
  TRAINER_RUNTIMES_OR_SKIP(f.store);
  json spec = torch_spec(1);
  spec["managedBy"] = "kueue.x-k8s.io/multikueue";
  f.train_job("remote", spec);
  f.train_job("odd", {{"runtimeRef", {{"name", "x"}, {"kind", "Other"}, {"apiGroup", "example.com"}}}});
  f.step(2s);
  CHECK(!f.find_jobset("remote"));
  CHECK(!f.trainjob("remote").contains("status"));
  CHECK(!f.find_jobset("odd"));
  CHECK(!f.trainjob("odd").contains("status"));
}

TEST_CASE("trainjob: a rank whose PET_MASTER_ADDR names no rank 0 waits as torchrun waits, then fails",
          "[trainer][trainjob][rendezvous]") {
  SimulationOptions opt;
  opt.rendezvous_timeout = 30s;
  TrainerSim f(opt);
  TRAINER_RUNTIMES_OR_SKIP(f.store);
  // A runtime whose trainer replicated job is not named node: PET_MASTER_ADDR still names
  // <tj>-node-0-0.<tj> (torch.go hard-codes it), which no pod is.
  json rt = *f.store.get(*f.t.clustertrainingruntimes, "", "torch-distributed");
  rt["metadata"] = {{"name", "torch-trainer-named"}};
  rt["spec"]["template"]["spec"]["replicatedJobs"][0]["name"] = "trainer";
  f.store.create(*f.t.clustertrainingruntimes, rt);
  json spec = torch_spec(2);
  spec["runtimeRef"]["name"] = "torch-trainer-named";
  f.train_job("lost", spec);
  f.step(10s);
  const auto pods = f.pods_of("lost");
  REQUIRE(pods.size() == 2);
  CHECK(phase(pods[0]) == "Running");
  const std::string log = f.log_of(pods[0]);
  CHECK(log.find("The IPv6 network addresses of (lost-node-0-0.lost, 29500) cannot be retrieved") != std::string::npos);
  CHECK(log.find("Train Epoch") == std::string::npos);
  f.step(25s);
  CHECK(f.log_of(pods[0]).find("torch.distributed.DistNetworkError") != std::string::npos);
  CHECK(phase(f.pod(meta_name(pods[0]))) == "Failed");
  // The Job retries (backoffLimit 6); every attempt waits and fails alike, then the TrainJob fails.
  f.step(300s);
  const json failed = condition_of(f.trainjob("lost"), "Failed");
  REQUIRE(failed.is_object());
  CHECK(failed["reason"] == "FailedJobs");
}

TEST_CASE("trainjob: an MPI launcher reaches its nodes through the hostfile and succeeds", "[trainer][trainjob][mpi]") {
  TrainerSim f;
  TRAINER_RUNTIMES_OR_SKIP(f.store);
  f.train_job("ds",
              {{"runtimeRef", {{"name", "deepspeed-distributed"}}},
               {"trainer", {{"numNodes", 3}, {"command", {"mpirun", "--allow-run-as-root", "python", "train.py"}}}}},
              {{"kubesim.trainctl.io/duration", "20s"}});
  f.step(1s);
  // The launcher waits for its nodes (dependsOn node Ready).
  CHECK(f.find("batch", "v1", "jobs", "ds-node-0"));
  CHECK(!f.find("batch", "v1", "jobs", "ds-launcher-0"));
  f.step(10s);
  REQUIRE(f.find("batch", "v1", "jobs", "ds-launcher-0"));
  std::vector<json> nodes;
  for (const auto& p : f.pods_of("ds"))
    if (p["metadata"]["labels"][kReplicatedJobNameKey] == "node") nodes.push_back(p);
  REQUIRE(nodes.size() == 2);
  CHECK(nodes[0]["metadata"]["annotations"][kOutcomeAnnotation] == "run-forever");  // sshd serves
  f.step(30s);
  const json complete = condition_of(f.trainjob("ds"), "Complete");
  REQUIRE(complete.is_object());
  CHECK(complete["reason"] == "AllJobsCompleted");
  // The success policy (launcher) ended the JobSet; its node Jobs are deleted.
  const auto node_job = f.find("batch", "v1", "jobs", "ds-node-0");
  CHECK((!node_job || node_job->at("metadata").contains("deletionTimestamp")));
}

TEST_CASE("trainjob: with TrainJobStatus the rank-0 pod reports its progress", "[trainer][trainjob][progress]") {
  SimulationOptions opt;
  opt.trainjob_status = true;
  TrainerSim f(opt);
  TRAINER_RUNTIMES_OR_SKIP(f.store);
  f.train_job("prog", torch_spec(2, {{"command", {"sh", "-c", "torchrun /workspace/train.py"}}}),
              {{"kubesim.trainctl.io/duration", "40s"}});
  f.train_job("quiet", torch_spec(1), {{"kubesim.trainctl.io/duration", "40s"}, {kProgressAnnotation, "none"}});
  f.step(3s);
  CHECK(!f.trainjob("prog")["status"].contains("trainerStatus"));
  f.step(20s);  // 20 s of training: half
  const json ts = f.trainjob("prog")["status"]["trainerStatus"];
  // Reports every 10 s of training: after 20 s of the 40 s run about half is done.
  CHECK(ts["progressPercentage"].get<int>() >= 40);
  CHECK(ts["progressPercentage"].get<int>() <= 55);
  CHECK(ts["estimatedRemainingSeconds"].get<int>() >= 18);
  CHECK(ts["estimatedRemainingSeconds"].get<int>() <= 24);
  CHECK(ts["metrics"][0]["name"] == "loss");
  CHECK(!ts.value("lastUpdatedTime", "").empty());
  f.step(30s);
  CHECK(f.trainjob("prog")["status"]["trainerStatus"]["progressPercentage"] == 100);
  CHECK(f.trainjob("prog")["status"]["trainerStatus"]["estimatedRemainingSeconds"] == 0);
  CHECK(!f.trainjob("quiet").value("status", json::object()).contains("trainerStatus"));
  CHECK(f.find("", "v1", "configmaps", "prog-tls-config"));
}
