// What kubesim's Trainer builds from a TrainJob and Kubeflow Trainer v2.3.0's own default
// runtimes: the JobSet (counts, the torch plugin's PET_* env in upstream's order, the port, the
// merged resources, image/command/args), numProcPerNode's rules (torch.go), the MPI plugin's
// launcher and hostfile (mpi.go), JAX and XGBoost env, runtimePatches' metadata on the JobSet,
// the initializers' env, Volcano's PodGroup, the TrainJobStatus env. Expected values read from
// the plugins' code and their *_test.go cases.
#include "trainer_fixture.h"

#include "core/base64.h"
#include "kubesim/controllers/trainer_build.h"
#include "kubesim/controllers/trainer_plugins.h"

using namespace kubesim;
using namespace kubesim::testing;

namespace {

struct Built {
  TrainerInfo info;
  json jobset;
  std::vector<json> extras;
};

json tj_of(const std::string& name, json spec) {
  return trainjob_with_defaults({{"apiVersion", kTrainerApiVersion},
                                 {"kind", "TrainJob"},
                                 {"metadata", {{"name", name}, {"namespace", "team-a"}, {"uid", "uid-1"}}},
                                 {"spec", std::move(spec)}});
}

Built build(const Store& store, const json& tj, TrainerOptions opts = {}) {
  const ResourceType* ctr = TrainerTypes::find(store).clustertrainingruntimes;
  const auto runtime = store.get(*ctr, "", tj["spec"]["runtimeRef"].value("name", ""));
  REQUIRE(runtime);
  Built b;
  b.info = runtime_info(tj, (*runtime)["spec"], opts);
  b.jobset = build_trainer_jobset(b.info, tj);
  b.extras = build_trainer_extras(b.info, tj, opts);
  return b;
}

const json& rjob(const json& js, const std::string& name) {
  for (const auto& rj : js["spec"]["replicatedJobs"])
    if (rj["name"] == name) return rj;
  FAIL("no replicated job " << name);
  throw;
}

const json& container(const json& rj, const std::string& name = "node") {
  for (const auto& c : rj["template"]["spec"]["template"]["spec"]["containers"])
    if (c["name"] == name) return c;
  FAIL("no container " << name);
  throw;
}

std::vector<std::string> env_names(const json& c) {
  std::vector<std::string> out;
  for (const auto& e : c.value("env", json::array())) out.push_back(e["name"]);
  return out;
}

}  // namespace

TEST_CASE("trainer: torch-distributed with 3 nodes of 4 GPUs", "[trainer][build]") {
  Store store;
  TRAINER_RUNTIMES_OR_SKIP(store);
  const json tj = tj_of("mnist", {{"runtimeRef", {{"name", "torch-distributed"}}},
                                  {"trainer",
                                   {{"numNodes", 3},
                                    {"image", "registry.example/train:2"},
                                    {"command", {"torchrun"}},
                                    {"args", {"/workspace/train.py", "--epochs", "2"}},
                                    {"env", {{{"name", "EPOCHS"}, {"value", "2"}}}},
                                    {"resourcesPerNode", {{"limits", {{"nvidia.com/gpu", 4}}}}}}}});
  const Built b = build(store, tj);
  const json& js = b.jobset;
  CHECK(js["metadata"]["name"] == "mnist");
  CHECK(js["metadata"]["ownerReferences"][0]["kind"] == "TrainJob");
  CHECK(js["metadata"]["ownerReferences"][0]["controller"] == true);
  CHECK(js["spec"]["suspend"] == false);
  const json& node = rjob(js, "node");
  CHECK(node["replicas"] == 1);
  CHECK(node["template"]["spec"]["parallelism"] == 3);
  CHECK(node["template"]["spec"]["completions"] == 3);
  const json& c = container(node);
  CHECK(c["image"] == "registry.example/train:2");
  CHECK(c["command"] == json::array({"torchrun"}));
  CHECK(c["args"] == json::array({"/workspace/train.py", "--epochs", "2"}));
  // torch.go: the TrainJob's env first, then PET_*, each upserted.
  CHECK(env_names(c) == std::vector<std::string>{"EPOCHS", "PET_NNODES", "PET_NPROC_PER_NODE", "PET_NODE_RANK",
                                                 "PET_MASTER_ADDR", "PET_MASTER_PORT"});
  CHECK(env_value(c, "PET_NNODES") == "3");
  CHECK(env_value(c, "PET_NPROC_PER_NODE") == "auto");  // a GPU: torchrun decides
  CHECK(c["env"][3]["valueFrom"]["fieldRef"]["fieldPath"] ==
        "metadata.annotations['batch.kubernetes.io/job-completion-index']");
  CHECK(env_value(c, "PET_MASTER_ADDR") == "mnist-node-0-0.mnist");
  CHECK(env_value(c, "PET_MASTER_PORT") == "29500");
  CHECK(c["ports"] == json::parse(R"([{"containerPort": 29500}])"));
  CHECK(c["resources"]["limits"] == json::parse(R"({"nvidia.com/gpu": "4"})"));
  CHECK(b.extras.empty());
}

TEST_CASE("trainer: numProcPerNode is the TrainJob's, else the CPUs rounded up without a GPU", "[trainer][build]") {
  Store store;
  TRAINER_RUNTIMES_OR_SKIP(store);
  auto nproc = [&](json trainer) {
    const Built b = build(store, tj_of("n", {{"runtimeRef", {{"name", "torch-distributed"}}}, {"trainer", trainer}}));
    return env_value(container(rjob(b.jobset, "node")), "PET_NPROC_PER_NODE");
  };
  CHECK(nproc({{"numProcPerNode", 8}}) == "8");
  CHECK(nproc({{"resourcesPerNode", {{"requests", {{"cpu", "2.5"}}}}}}) == "3");     // torch_test.go
  CHECK(nproc({{"resourcesPerNode", {{"limits", {{"cpu", "700m"}}}}}}) == "1");
  CHECK(nproc({{"resourcesPerNode", {{"limits", {{"cpu", "4"}, {"nvidia.com/gpu", 1}}}}}}) == "auto");
  CHECK(nproc(json::object()) == "1");  // no resources at all: max(1, 0)
  // No spec.trainer: no PET_* at all (torch.go injects only with a trainer).
  const Built b = build(store, tj_of("n", {{"runtimeRef", {{"name", "torch-distributed"}}}}));
  CHECK(!container(rjob(b.jobset, "node")).contains("env"));
}

TEST_CASE("trainer: deepspeed-distributed runs a launcher and numNodes-1 ssh nodes", "[trainer][build][mpi]") {
  Store store;
  TRAINER_RUNTIMES_OR_SKIP(store);
  const Built b = build(store, tj_of("ds", {{"runtimeRef", {{"name", "deepspeed-distributed"}}},
                                            {"trainer",
                                             {{"numNodes", 3},
                                              {"command", {"mpirun", "python", "train.py"}},
                                              {"resourcesPerNode", {{"limits", {{"nvidia.com/gpu", 4}}}}}}}}));
  const json& node = rjob(b.jobset, "node");
  const json& launcher = rjob(b.jobset, "launcher");
  CHECK(node["template"]["spec"]["parallelism"] == 2);  // runLauncherAsNode: numNodes - 1
  CHECK(launcher["template"]["spec"]["parallelism"] == 1);
  CHECK(launcher["dependsOn"] == json::parse(R"([{"name": "node", "status": "Ready"}])"));
  const json& lc = container(launcher);
  CHECK(lc["command"] == json::array({"mpirun", "python", "train.py"}));
  CHECK(env_value(lc, "OMPI_MCA_orte_default_hostfile") == "/etc/mpi/hostfile");
  CHECK(env_value(lc, "OMPI_MCA_orte_keep_fqdn_hostnames") == "true");
  CHECK(env_value(lc, "OMPI_MCA_orte_set_default_slots") == "4");  // the runtime's 1 becomes the GPUs
  CHECK(env_value(lc, "OMPI_MCA_plm_rsh_args") == "-o ConnectionAttempts=10");
  CHECK(lc["volumeMounts"] == json::parse(R"([{"name": "mpi-ssh-auth", "mountPath": "/home/mpiuser/.ssh"},
                                             {"name": "mpi-hostfile", "mountPath": "/etc/mpi"}])"));
  // The node keeps its sshd, gets the key and the resources (runLauncherAsNode).
  const json& nc = container(node);
  CHECK(nc["command"] == json::array({"/usr/sbin/sshd"}));
  CHECK(nc["volumeMounts"] == json::parse(R"([{"name": "mpi-ssh-auth", "mountPath": "/home/mpiuser/.ssh"}])"));
  CHECK(nc["resources"]["limits"] == json::parse(R"({"nvidia.com/gpu": "4"})"));
  CHECK(node["template"]["spec"]["template"]["spec"]["volumes"][0]["secret"]["secretName"] == "ds-mpi-ssh-auth");
  REQUIRE(b.extras.size() == 2);
  CHECK(b.extras[0]["kind"] == "Secret");
  CHECK(b.extras[0]["type"] == "kubernetes.io/ssh-auth");
  CHECK(b.extras[0]["immutable"] == true);
  CHECK(b.extras[1]["metadata"]["name"] == "ds-mpi-hostfile");
  CHECK(b.extras[1]["data"]["hostfile"] ==
        "ds-node-0-0.ds slots=4\nds-node-0-1.ds slots=4\nds-launcher-0-0.ds slots=4\n");
}

TEST_CASE("trainer: the MPI Secret is an ECDSA P-521 key and its authorized_keys line", "[trainer][build][mpi]") {
  Store store;
  TRAINER_RUNTIMES_OR_SKIP(store);
  const Built b = build(store, tj_of("ds", {{"runtimeRef", {{"name", "deepspeed-distributed"}}}, {"trainer", json::object()}}));
  const auto priv = trainctl::base64_decode(b.extras[0]["data"]["ssh-privatekey"].get<std::string>());
  const auto pub = trainctl::base64_decode(b.extras[0]["data"]["ssh-publickey"].get<std::string>());
  REQUIRE(priv);
  REQUIRE(pub);
  CHECK(priv->rfind("-----BEGIN EC PRIVATE KEY-----", 0) == 0);
  CHECK(pub->rfind("ecdsa-sha2-nistp521 AAAAE2VjZHNhLXNoYTItbmlzdHA1MjE", 0) == 0);
  CHECK(pub->back() == '\n');
}

TEST_CASE("trainer: JAX and XGBoost get their coordinator env", "[trainer][build]") {
  Store store;
  TRAINER_RUNTIMES_OR_SKIP(store);
  const Built jax = build(store, tj_of("j", {{"runtimeRef", {{"name", "jax-distributed"}}}, {"trainer", {{"numNodes", 2}}}}));
  const json& jc = container(rjob(jax.jobset, "node"));
  CHECK(env_value(jc, "JAX_NUM_PROCESSES") == "2");
  CHECK(env_value(jc, "JAX_COORDINATOR_ADDRESS") == "j-node-0-0.j:29500");
  const Built xgb = build(store, tj_of("x", {{"runtimeRef", {{"name", "xgboost-distributed"}}},
                                            {"trainer", {{"numNodes", 2}, {"resourcesPerNode", {{"limits", {{"nvidia.com/gpu", 2}}}}}}}}));
  const json& xc = container(rjob(xgb.jobset, "node"));
  CHECK(env_value(xc, "DMLC_TRACKER_URI") == "x-node-0-0.x");
  CHECK(env_value(xc, "DMLC_NUM_WORKER") == "4");  // nodes x GPUs
  CHECK(rjob(xgb.jobset, "node")["template"]["spec"]["parallelism"] == 2);
}

TEST_CASE("trainer: runtimePatches' template metadata labels the JobSet, pod patches reach the pods",
          "[trainer][build]") {
  Store store;
  TRAINER_RUNTIMES_OR_SKIP(store);
  const json tj = tj_of("p", json::parse(R"({"runtimeRef": {"name": "torch-distributed"}, "trainer": {"numNodes": 1},
    "runtimePatches": [{"manager": "trainctl.io/submit", "trainingRuntimeSpec": {"template": {
      "metadata": {"labels": {"team": "a"}, "annotations": {"note": "x"}},
      "spec": {"replicatedJobs": [{"name": "node", "template": {"spec": {"template": {
        "metadata": {"annotations": {"kubesim.trainctl.io/outcome": "fail"}},
        "spec": {"nodeSelector": {"pool": "gpu"}}}}}}]}}}}]})"));
  const Built b = build(store, tj);
  CHECK(b.jobset["metadata"]["labels"] == json::parse(R"({"team": "a"})"));
  CHECK(b.jobset["metadata"]["annotations"] == json::parse(R"({"note": "x"})"));
  const json& pod = rjob(b.jobset, "node")["template"]["spec"]["template"];
  CHECK(pod["metadata"]["annotations"]["kubesim.trainctl.io/outcome"] == "fail");
  CHECK(pod["spec"]["nodeSelector"] == json::parse(R"({"pool": "gpu"})"));
}

TEST_CASE("trainer: Volcano's PodGroup counts every pod and sums their requests", "[trainer][build]") {
  Store store;
  TRAINER_RUNTIMES_OR_SKIP(store);
  json rt = *store.get(*TrainerTypes::find(store).clustertrainingruntimes, "", "torch-distributed");
  rt["spec"]["podGroupPolicy"] = {{"volcano", json::object()}};
  rt["spec"]["template"]["metadata"]["annotations"]["scheduling.volcano.sh/queue-name"] = "research";
  const json tj = tj_of("v", json::parse(R"({"runtimeRef": {"name": "torch-distributed"}, "trainer": {"numNodes": 3,
      "resourcesPerNode": {"requests": {"cpu": "500m", "memory": "2Gi"}}}})"));
  TrainerInfo info = runtime_info(tj, rt["spec"], {});
  const json js = build_trainer_jobset(info, tj);
  CHECK(rjob(js, "node")["template"]["spec"]["template"]["metadata"]["annotations"]["scheduling.k8s.io/group-name"] == "v");
  const auto extras = build_trainer_extras(info, tj, {});
  REQUIRE(extras.size() == 1);
  CHECK(extras[0]["apiVersion"] == "scheduling.volcano.sh/v1beta1");
  CHECK(extras[0]["spec"] == json::parse(R"({"minMember": 3, "minResources": {"cpu": "1500m", "memory": "6Gi"},
                                             "queue": "research"})"));
}

TEST_CASE("trainer: the TrainJobStatus gate gives every trainer container the status server", "[trainer][build]") {
  Store store;
  TRAINER_RUNTIMES_OR_SKIP(store);
  TrainerOptions opts;
  opts.trainjob_status = true;
  const Built b = build(store, tj_of("s", {{"runtimeRef", {{"name", "torch-distributed"}}}, {"trainer", {{"numNodes", 1}}}}), opts);
  const json& c = container(rjob(b.jobset, "node"));
  CHECK(env_value(c, "KUBEFLOW_TRAINER_SERVER_URL") ==
        "https://kubeflow-trainer-controller-manager.kubeflow-system.svc:10443/apis/trainer.kubeflow.org/v1alpha1/"
        "namespaces/team-a/trainjobs/s/status");
  CHECK(env_value(c, "KUBEFLOW_TRAINER_SERVER_TOKEN") == "/var/run/secrets/kubeflow/trainer/token");
  const json& vol = rjob(b.jobset, "node")["template"]["spec"]["template"]["spec"]["volumes"][0];
  CHECK(vol["projected"]["sources"][0]["serviceAccountToken"]["audience"] ==
        "trainer.kubeflow.org/v1alpha1/namespaces/team-a/trainjobs/s/status");
  REQUIRE(b.extras.size() == 1);
  CHECK(b.extras[0]["metadata"]["name"] == "s-tls-config");
}

TEST_CASE("trainer: an envInjection target the runtime lacks is the plugin's error", "[trainer][build]") {
  Store store;
  TRAINER_RUNTIMES_OR_SKIP(store);
  json rt = *store.get(*TrainerTypes::find(store).clustertrainingruntimes, "", "torch-distributed");
  rt["spec"]["mlPolicy"]["torch"] = {{"envInjection", {{"targets", {{{"jobName", "node"}, {"containerNames", {"probe"}}}}}}}};
  const json tj = tj_of("e", {{"runtimeRef", {{"name", "torch-distributed"}}}, {"trainer", {{"numNodes", 1}}}});
  CHECK_THROWS_WITH(runtime_info(tj, rt["spec"], {}),
                    "envInjection target podSet \"node\" container \"probe\" not found in runtime template");
}
