// MPIJob (mpi-operator v2beta1) and Volcano Job controllers.
#include <regex>

#include "test_controllers_fixture.h"

using namespace kubesim;
using namespace kubesim::testing;

namespace {

json mpi_job(const std::string& name, int workers) {
  json launcher = {
      {"spec",
       {{"containers",
         json::array({{{"name", "launcher"},
                       {"image", "mpioperator/tensorflow-benchmarks:latest"},
                       {"command", json::array({"mpirun", "--allow-run-as-root", "-np", "2", "python",
                                                "scripts/tf_cnn_benchmarks/tf_cnn_benchmarks.py"})}}})}}}};
  json worker = {{"spec", {{"containers", json::array({gpu_container("worker", "/usr/sbin/sshd -De", 1)})}}}};
  return {{"apiVersion", "kubeflow.org/v2beta1"},
          {"kind", "MPIJob"},
          {"metadata",
           {{"name", name},
            {"namespace", "default"},
            {"annotations", {{"kubesim.trainctl.io/duration", "30s"}}}}},
          {"spec",
           {{"slotsPerWorker", 2},
            // The launcher's mpirun needs its workers' names: with AtStartup it would start
            // before they resolve and fail (ssh: Could not resolve hostname), as on a cluster.
            {"launcherCreationPolicy", "WaitForWorkersReady"},
            {"runPolicy", {{"cleanPodPolicy", "Running"}}},
            {"mpiReplicaSpecs",
             {{"Launcher", {{"replicas", 1}, {"template", launcher}}},
              {"Worker", {{"replicas", workers}, {"template", worker}}}}}}}};
}

json volcano_job(const std::string& name, int pservers, int trainers, int gpus, int min_available) {
  auto task = [&](const std::string& tname, int replicas) {
    return json{{"name", tname},
                {"replicas", replicas},
                {"template",
                 {{"spec",
                   {{"restartPolicy", "Never"},
                    {"containers", json::array({gpu_container(tname, "python train.py", gpus)})}}}}}};
  };
  return {{"apiVersion", "batch.volcano.sh/v1alpha1"},
          {"kind", "Job"},
          {"metadata",
           {{"name", name},
            {"namespace", "default"},
            {"annotations", {{"kubesim.trainctl.io/duration", "30s"}}}}},
          {"spec",
           {{"minAvailable", min_available},
            {"schedulerName", "volcano"},
            {"plugins", {{"env", json::array()}, {"svc", json::array()}}},
            {"tasks", json::array({task("pserver", pservers), task("trainer", trainers)})}}}};
}

}  // namespace

TEST_CASE("MPIJob creates workers, then the launcher Job and its pod", "[controllers][mpi]") {
  SimFixture f;
  f.create("kubeflow.org", "v2beta1", "mpijobs", mpi_job("tensorflow-benchmarks", 2));
  f.step(0ms);

  json w0 = f.pod("tensorflow-benchmarks-worker-0");
  const auto& l = w0["metadata"]["labels"];
  CHECK(l["training.kubeflow.org/job-name"] == "tensorflow-benchmarks");
  CHECK(l["training.kubeflow.org/job-role"] == "worker");
  CHECK(l["training.kubeflow.org/replica-index"] == "0");
  CHECK(l["training.kubeflow.org/operator-name"] == "mpi-operator");
  CHECK(f.find("", "v1", "pods", "tensorflow-benchmarks-worker-1"));
  // WaitForWorkersReady: no launcher Job before the workers are Ready.
  CHECK_FALSE(f.find("batch", "v1", "jobs", "tensorflow-benchmarks-launcher"));
  json cm = f.get("", "v1", "configmaps", "tensorflow-benchmarks-config");
  CHECK(cm["data"]["hostfile"] ==
        "tensorflow-benchmarks-worker-0.tensorflow-benchmarks.default.svc slots=2\n"
        "tensorflow-benchmarks-worker-1.tensorflow-benchmarks.default.svc slots=2\n");
  CHECK(f.get("", "v1", "services", "tensorflow-benchmarks")["spec"]["clusterIP"] == "None");
  json job = f.get("kubeflow.org", "v2beta1", "mpijobs", "tensorflow-benchmarks");
  REQUIRE(find_condition(job, "Created") != nullptr);
  CHECK((*find_condition(job, "Created"))["message"] == "MPIJob default/tensorflow-benchmarks is created.");
  CHECK((*find_condition(job, "Created"))["reason"] == "MPIJobCreated");

  f.step(6s);
  json launcher_job = f.get("batch", "v1", "jobs", "tensorflow-benchmarks-launcher");
  CHECK(launcher_job["metadata"]["ownerReferences"][0]["kind"] == "MPIJob");
  // newLauncherJob labels the Job app=NAME; the operator's labels are on its pod template.
  CHECK(launcher_job["metadata"]["labels"] == json{{"app", "tensorflow-benchmarks"}});
  CHECK(launcher_job["spec"]["template"]["metadata"]["labels"]["training.kubeflow.org/job-role"] == "launcher");
  std::vector<json> launchers;
  for (const auto& p : f.list("", "v1", "pods"))
    if (p["metadata"]["labels"].value("training.kubeflow.org/job-role", "") == "launcher")
      launchers.push_back(p);
  REQUIRE(launchers.size() == 1);
  const std::string lname = launchers[0]["metadata"]["name"];
  CHECK(
      std::regex_match(lname, std::regex("tensorflow-benchmarks-launcher-[bcdfghjklmnpqrstvwxz2456789]{5}")));
  CHECK(launchers[0]["metadata"]["labels"]["job-name"] == "tensorflow-benchmarks-launcher");
  CHECK(launchers[0]["metadata"]["labels"]["training.kubeflow.org/job-name"] == "tensorflow-benchmarks");
  CHECK(launchers[0]["metadata"]["ownerReferences"][0]["kind"] == "Job");
  CHECK(env_value(launchers[0]["spec"]["containers"][0], "OMPI_MCA_orte_default_hostfile") ==
        "/etc/mpi/hostfile");
  CHECK(phase(launchers[0]) == "Running");
  job = f.get("kubeflow.org", "v2beta1", "mpijobs", "tensorflow-benchmarks");
  REQUIRE(find_condition(job, "Running") != nullptr);
  CHECK((*find_condition(job, "Running"))["reason"] == "MPIJobRunning");
  CHECK(job["status"]["replicaStatuses"]["Worker"]["active"] == 2);

  f.step(40s);
  job = f.get("kubeflow.org", "v2beta1", "mpijobs", "tensorflow-benchmarks");
  const json* done = find_condition(job, "Succeeded");
  REQUIRE(done != nullptr);
  CHECK((*done)["reason"] == "MPIJobSucceeded");
  CHECK((*done)["message"] == "MPIJob default/tensorflow-benchmarks successfully completed.");
  CHECK((*find_condition(job, "Running"))["status"] == "False");
  CHECK(job["status"]["replicaStatuses"]["Launcher"]["succeeded"] == 1);
  CHECK(job["status"].contains("completionTime"));
  // cleanPodPolicy Running deletes the workers that still run sshd (gone after their 30s
  // grace period); the launcher pod stays.
  CHECK(f.pod("tensorflow-benchmarks-worker-0")["metadata"].contains("deletionTimestamp"));
  f.step(31s);
  CHECK_FALSE(f.find("", "v1", "pods", "tensorflow-benchmarks-worker-0"));
  CHECK(phase(f.pod(lname)) == "Succeeded");
  CHECK(f.logs.lines("default", lname, "launcher").back().text == "accuracy=0.9904");
}

TEST_CASE("Volcano job with pserver and trainer tasks is gang-scheduled", "[controllers][volcano]") {
  SimFixture f;
  json created = f.create("batch.volcano.sh", "v1alpha1", "jobs", volcano_job("fluid-ctr", 2, 2, 1, 4));
  f.step(0ms);
  const std::string pg_name = "fluid-ctr-" + created["metadata"]["uid"].get<std::string>();
  json pg = f.get("scheduling.volcano.sh", "v1beta1", "podgroups", pg_name);
  CHECK(pg["spec"]["minMember"] == 4);
  CHECK(pg["spec"]["queue"] == "default");
  for (const char* name :
       {"fluid-ctr-pserver-0", "fluid-ctr-pserver-1", "fluid-ctr-trainer-0", "fluid-ctr-trainer-1"}) {
    json p = f.pod(name);
    CHECK(p["metadata"]["annotations"]["scheduling.k8s.io/group-name"] == pg_name);
    CHECK(p["metadata"]["labels"]["volcano.sh/job-name"] == "fluid-ctr");
    CHECK(p["metadata"]["labels"]["volcano.sh/job-namespace"] == "default");
    CHECK(p["metadata"]["labels"]["volcano.sh/queue-name"] == "default");
    CHECK(p["spec"]["schedulerName"] == "volcano");
    CHECK_FALSE(p["spec"].value("nodeName", "").empty());
  }
  json t1 = f.pod("fluid-ctr-trainer-1");
  CHECK(t1["metadata"]["labels"]["volcano.sh/task-spec"] == "trainer");
  CHECK(t1["metadata"]["labels"]["volcano.sh/task-index"] == "1");
  CHECK(env_value(t1["spec"]["containers"][0], "VK_TASK_INDEX") == "1");
  CHECK(t1["spec"]["hostname"] == "fluid-ctr-trainer-1");
  CHECK(t1["spec"]["subdomain"] == "fluid-ctr");

  f.step(5s);
  json job = f.get("batch.volcano.sh", "v1alpha1", "jobs", "fluid-ctr");
  CHECK(job["status"]["state"]["phase"] == "Running");
  CHECK(job["status"]["minAvailable"] == 4);
  CHECK(job["status"]["running"] == 4);
  f.step(40s);
  job = f.get("batch.volcano.sh", "v1alpha1", "jobs", "fluid-ctr");
  CHECK(job["status"]["state"]["phase"] == "Completed");
  // The finished state's killJob recounts only the pods it failed to delete (v1.15.1
  // job_controller_actions.go killPods), so a completed job reports 0 succeeded; the pods
  // themselves stay Succeeded.
  CHECK(job["status"]["succeeded"] == 0);
  CHECK(phase(f.pod("fluid-ctr-trainer-0")) == "Succeeded");
}

TEST_CASE("a gang that does not fit stays Pending as a whole", "[controllers][volcano][scheduler]") {
  SimFixture f;
  // 4 pods x 2 GPUs = 8 GPUs on a cluster of 6: nothing may be bound.
  f.create("batch.volcano.sh", "v1alpha1", "jobs", volcano_job("too-big", 2, 2, 2, 4));
  f.step(10s);
  for (const char* name :
       {"too-big-pserver-0", "too-big-pserver-1", "too-big-trainer-0", "too-big-trainer-1"}) {
    json p = f.pod(name);
    CHECK(p["spec"].value("nodeName", "") == "");
    CHECK(phase(p) == "Pending");
    const json* sched = find_condition(p, "PodScheduled");
    REQUIRE(sched != nullptr);
    CHECK((*sched)["status"] == "False");
    CHECK((*sched)["reason"] == "Unschedulable");
  }
  CHECK(f.get("batch.volcano.sh", "v1alpha1", "jobs", "too-big")["status"]["state"]["phase"] == "Pending");
  size_t failed_scheduling = 0;
  for (const auto& e : f.list("", "v1", "events"))
    if (e["reason"] == "FailedScheduling") {
      ++failed_scheduling;
      CHECK(e["type"] == "Warning");
      CHECK(e["involvedObject"]["kind"] == "Pod");
      CHECK(e["message"] ==
            "0/6 nodes are available: 3 Insufficient nvidia.com/gpu, "
            "3 node(s) had untolerated taint {node-role.kubernetes.io/master: }.");
    }
  CHECK(failed_scheduling == 4);
}

TEST_CASE("Volcano RestartJob policy restarts the job on a pod failure", "[controllers][volcano]") {
  SimFixture f;
  json job = volcano_job("retry", 1, 1, 0, 2);
  job["metadata"]["annotations"]["kubesim.trainctl.io/outcome"] = "fail";
  job["spec"]["maxRetry"] = 1;
  job["spec"]["policies"] = json::array({{{"event", "PodFailed"}, {"action", "RestartJob"}}});
  f.create("batch.volcano.sh", "v1alpha1", "jobs", job);
  f.step(35s);
  json st = f.get("batch.volcano.sh", "v1alpha1", "jobs", "retry")["status"];
  CHECK(st["retryCount"] == 1);
  CHECK(st["version"] == 1);
  f.step(40s);
  st = f.get("batch.volcano.sh", "v1alpha1", "jobs", "retry")["status"];
  CHECK(st["state"]["phase"] == "Failed");
}
