// MPIJob v2beta1 rules of mpi-operator v0.8.0 (pkg/controller/mpi_job_controller.go,
// pkg/apis/kubeflow/v2beta1/default.go): launcherCreationPolicy, the launcher Job built from
// runPolicy, the Service, the launcher env.
#include "kubesim/controllers/mpi_job.h"
#include "test_controllers_fixture.h"

using namespace kubesim;
using namespace kubesim::testing;

namespace {

json mpi(const std::string& name, int workers, json extra_spec = json::object(),
         json launcher_extra = json::object()) {
  json launcher = {
      {"replicas", 1},
      {"template",
       {{"spec",
         {{"containers",
           json::array({{{"name", "launcher"},
                         {"image", "mpioperator/mpi-pi:openmpi"},
                         {"command", json::array({"mpirun", "-n", "2", "/home/mpiuser/pi"})}}})}}}}}};
  for (auto it = launcher_extra.begin(); it != launcher_extra.end(); ++it) launcher[it.key()] = *it;
  json worker = {{"replicas", workers},
                 {"template", {{"spec", {{"containers", json::array({gpu_container("worker", "", 1)})}}}}}};
  worker["template"]["spec"]["containers"][0].erase("command");
  json spec = {{"mpiReplicaSpecs", {{"Launcher", launcher}, {"Worker", worker}}}};
  for (auto it = extra_spec.begin(); it != extra_spec.end(); ++it) spec[it.key()] = *it;
  return {{"apiVersion", "kubeflow.org/v2beta1"},
          {"kind", "MPIJob"},
          {"metadata",
           {{"name", name},
            {"namespace", "default"},
            {"annotations", {{"kubesim.trainctl.io/duration", "20s"}}}}},
          {"spec", spec}};
}

std::vector<json> launcher_pods(SimFixture& f, const std::string& job) {
  std::vector<json> out;
  for (const auto& p : f.list("", "v1", "pods"))
    if (p["metadata"]["labels"].value("job-name", "") == job + "-launcher") out.push_back(p);
  return out;
}

}  // namespace

TEST_CASE("MPIJob launcherCreationPolicy defaults to AtStartup: the launcher Job comes at once",
          "[controllers][mpi][upstream]") {
  SimFixture f;
  f.create("kubeflow.org", "v2beta1", "mpijobs", mpi("atstart", 2));
  f.sim->settle();
  REQUIRE(f.find("batch", "v1", "jobs", "atstart-launcher"));
  // Its workers are not even scheduled yet.
  CHECK(phase(f.pod("atstart-worker-0")) != "Running");
}

TEST_CASE("MPIJob WaitForWorkersReady creates the launcher only when every worker is Ready",
          "[controllers][mpi][upstream]") {
  SimFixture f;
  f.create("kubeflow.org", "v2beta1", "mpijobs",
           mpi("waitready", 2, {{"launcherCreationPolicy", "WaitForWorkersReady"}}));
  f.sim->settle();
  CHECK_FALSE(f.find("batch", "v1", "jobs", "waitready-launcher"));
  f.step(6s);
  for (const char* w : {"waitready-worker-0", "waitready-worker-1"}) {
    const json pod = f.pod(w);
    const json* ready = find_condition(pod, "Ready");
    REQUIRE(ready != nullptr);
    CHECK((*ready)["status"] == "True");
  }
  CHECK(f.find("batch", "v1", "jobs", "waitready-launcher"));
}

TEST_CASE("MPIJob launcher Job: runPolicy fields as they are, labels app=NAME",
          "[controllers][mpi][upstream]") {
  SimFixture f;
  f.create("kubeflow.org", "v2beta1", "mpijobs",
           mpi("rp", 1,
               {{"runPolicy",
                 {{"backoffLimit", 2}, {"activeDeadlineSeconds", 600}, {"ttlSecondsAfterFinished", 60}}}}));
  f.create("kubeflow.org", "v2beta1", "mpijobs", mpi("norp", 1));
  f.sim->settle();
  json j = f.get("batch", "v1", "jobs", "rp-launcher");
  CHECK(j["spec"]["backoffLimit"] == 2);
  CHECK(j["spec"]["activeDeadlineSeconds"] == 600);
  CHECK(j["spec"]["ttlSecondsAfterFinished"] == 60);
  CHECK(j["metadata"]["labels"] == json{{"app", "rp"}});
  CHECK(j["metadata"]["ownerReferences"][0]["kind"] == "MPIJob");
  const json tl = j["spec"]["template"]["metadata"]["labels"];
  CHECK(tl["training.kubeflow.org/job-role"] == "launcher");
  CHECK(j["spec"]["template"]["spec"]["restartPolicy"] == "OnFailure");
  CHECK(j["spec"]["template"]["spec"]["hostname"] == "rp-launcher");
  CHECK(j["spec"]["template"]["spec"]["subdomain"] == "rp");
  // Without runPolicy.backoffLimit the Job has none: the batch Job default (6) applies.
  CHECK_FALSE(f.get("batch", "v1", "jobs", "norp-launcher")["spec"].contains("backoffLimit"));
}

TEST_CASE("MPIJob fails only when its launcher Job fails; the Job retries the launcher pod",
          "[controllers][mpi][upstream]") {
  SimFixture f;
  // WaitForWorkersReady: the launcher fails by its outcome annotation, not because it started
  // before its worker resolved (mpirun's ssh fails then, see test_rendezvous_contract.cpp).
  json job = mpi("retry", 1, {{"runPolicy", {{"backoffLimit", 1}}}, {"launcherCreationPolicy", "WaitForWorkersReady"}},
                 {{"restartPolicy", "Never"}});
  job["spec"]["mpiReplicaSpecs"]["Launcher"]["template"]["metadata"] = {
      {"annotations", {{"kubesim.trainctl.io/outcome", "fail"}, {"kubesim.trainctl.io/duration", "5s"}}}};
  f.create("kubeflow.org", "v2beta1", "mpijobs", job);
  f.step(10s);  // the first launcher pod (started at 4 s, after its worker) has failed
  std::vector<json> pods = launcher_pods(f, "retry");
  int failed = 0;
  for (const auto& p : pods) failed += phase(p) == "Failed";
  REQUIRE(failed >= 1);
  json mj = f.get("kubeflow.org", "v2beta1", "mpijobs", "retry");
  CHECK(find_condition(mj, "Failed") == nullptr);
  CHECK(pods.size() >= 2);  // a new launcher pod was made
  f.step(30s);
  mj = f.get("kubeflow.org", "v2beta1", "mpijobs", "retry");
  const json* c = find_condition(mj, "Failed");
  REQUIRE(c != nullptr);
  // updateMPIJobFailedStatus: the Job's reason and message plus the last failed pod's.
  CHECK((*c)["reason"].get<std::string>().rfind("BackoffLimitExceeded/", 0) == 0);
  CHECK((*c)["message"].get<std::string>().rfind("Job has reached the specified backoff limit: ", 0) == 0);
  CHECK(mj["status"]["replicaStatuses"]["Launcher"]["failed"] == 2);
  CHECK(mj["status"].contains("completionTime"));
}

TEST_CASE("MPIJob Service publishes ready pods only, unless the launcher is a worker",
          "[controllers][mpi][upstream]") {
  SimFixture f;
  f.create("kubeflow.org", "v2beta1", "mpijobs", mpi("svc", 1));
  f.create("kubeflow.org", "v2beta1", "mpijobs", mpi("law", 1, {{"runLauncherAsWorker", true}}));
  f.sim->settle();
  json svc = f.get("", "v1", "services", "svc");
  CHECK(svc["spec"]["publishNotReadyAddresses"] == false);
  CHECK(svc["spec"]["clusterIP"] == "None");
  CHECK(svc["spec"]["selector"] == json{{"training.kubeflow.org/operator-name", "mpi-operator"},
                                        {"training.kubeflow.org/job-name", "svc"}});
  CHECK(svc["metadata"]["labels"] == json{{"app", "svc"}});
  CHECK(f.get("", "v1", "services", "law")["spec"]["publishNotReadyAddresses"] == true);
  // runLauncherAsWorker: the launcher is first in the hostfile, workers' index labels shift.
  CHECK(f.get("", "v1", "configmaps", "law-config")["data"]["hostfile"] ==
        "law-launcher.law.default.svc slots=1\nlaw-worker-0.law.default.svc slots=1\n");
  CHECK(f.pod("law-worker-0")["metadata"]["labels"]["training.kubeflow.org/replica-index"] == "1");
  const json w = f.pod("svc-worker-0");
  CHECK(w["spec"]["hostname"] == "svc-worker-0");
  CHECK(w["spec"]["subdomain"] == "svc");
  CHECK(w["spec"]["restartPolicy"] == "Never");
  CHECK(w["spec"]["containers"][0]["command"] == json::array({"/usr/sbin/sshd", "-De"}));
  CHECK(w["spec"]["dnsConfig"]["searches"] == json::array({"svc.default.svc.cluster.local"}));
}

TEST_CASE("MPIJob launcher env as newLauncherPodTemplate sets it", "[controllers][mpi][upstream]") {
  SimFixture f;
  f.create("kubeflow.org", "v2beta1", "mpijobs", mpi("ompi", 1, {{"slotsPerWorker", 2}}));
  f.create("kubeflow.org", "v2beta1", "mpijobs", mpi("intel", 1, {{"mpiImplementation", "Intel"}}));
  f.sim->settle();
  auto env_names = [](const json& c) {
    std::vector<std::string> out;
    for (const auto& e : c["env"]) out.push_back(e["name"]);
    return out;
  };
  const json oc = f.get("batch", "v1", "jobs", "ompi-launcher")["spec"]["template"]["spec"]["containers"][0];
  CHECK(env_names(oc) == std::vector<std::string>{"K_MPI_JOB_ROLE", "OMPI_MCA_orte_keep_fqdn_hostnames",
                                                  "OMPI_MCA_orte_default_hostfile", "OMPI_MCA_plm_rsh_args",
                                                  "OMPI_MCA_orte_set_default_slots", "NVIDIA_VISIBLE_DEVICES",
                                                  "NVIDIA_DRIVER_CAPABILITIES"});
  CHECK(env_value(oc, "OMPI_MCA_orte_set_default_slots") == "2");
  CHECK_FALSE(oc["env"][5].contains("value"));  // set empty: the launcher sees no GPU
  const json ic = f.get("batch", "v1", "jobs", "intel-launcher")["spec"]["template"]["spec"]["containers"][0];
  CHECK(env_names(ic) == std::vector<std::string>{"K_MPI_JOB_ROLE", "I_MPI_HYDRA_HOST_FILE",
                                                  "I_MPI_HYDRA_BOOTSTRAP_EXEC_EXTRA_ARGS", "I_MPI_PERHOST",
                                                  "NVIDIA_VISIBLE_DEVICES", "NVIDIA_DRIVER_CAPABILITIES"});
  CHECK(f.get("", "v1", "configmaps", "intel-config")["data"]["hostfile"] ==
        "intel-worker-0.intel.default.svc:1\n");
}

TEST_CASE("MPIJob discover_hosts.sh lists the running workers only", "[controllers][mpi][upstream]") {
  SimFixture f;
  f.create("kubeflow.org", "v2beta1", "mpijobs", mpi("disc", 2));
  f.sim->settle();
  CHECK(f.get("", "v1", "configmaps", "disc-config")["data"]["discover_hosts.sh"] == "#!/bin/sh\n");
  f.step(6s);
  CHECK(f.get("", "v1", "configmaps", "disc-config")["data"]["discover_hosts.sh"] ==
        "#!/bin/sh\necho disc-worker-0.disc.default.svc\necho disc-worker-1.disc.default.svc\n");
}

TEST_CASE("MPIJob WaitForWorkersReady: Running workers are not enough, Ready is",
          "[controllers][mpi][upstream]") {
  // The controller alone (no kubelet, which sets Running and Ready together): workers are
  // made Running by hand, one of them not Ready, as a failing readiness probe leaves it.
  Store store;
  LogStore logs;
  Simulation::ensure_types(store);
  SimulationOptions o;
  Context ctx(store, logs, o);
  ctx.clock = [] { return TimePoint(std::chrono::seconds(1'700'000'000)); };
  ctx.wake_at = [](const ObjectKey&, TimePoint) {};
  MpiJobController mpi_controller(ctx);
  const ResourceType& mpijobs = *store.find("kubeflow.org", "v2beta1", "mpijobs");
  const ResourceType& pods = *store.find("", "v1", "pods");
  const ResourceType& jobs = *store.find("batch", "v1", "jobs");
  store.create(mpijobs, mpi("probe", 2, {{"launcherCreationPolicy", "WaitForWorkersReady"}}));
  auto reconcile = [&] {
    for (const auto& p : store.list(pods, "default").items) ctx.owners.add(&pods, *p);
    mpi_controller.reconcile("default", "probe");
  };
  reconcile();
  REQUIRE(store.get(pods, "default", "probe-worker-1"));
  auto set_worker = [&](const std::string& name, const std::string& ready) {
    store.mutate(pods, "default", name, [&](json& p) {
      p["status"] = {{"phase", "Running"},
                     {"conditions", json::array({{{"type", "Ready"}, {"status", ready}}})}};
      return true;
    });
  };
  set_worker("probe-worker-0", "True");
  set_worker("probe-worker-1", "False");
  reconcile();
  CHECK_FALSE(store.get(jobs, "default", "probe-launcher"));
  set_worker("probe-worker-1", "True");
  reconcile();
  CHECK(store.get(jobs, "default", "probe-launcher"));
}
