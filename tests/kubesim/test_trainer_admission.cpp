// Admission of TrainJobs, runtimes and JobSets as a cluster with Trainer v2.3.0, JobSet v0.12.0
// and Kueue v0.19.2 does it: the CRD defaults, the defaulting webhooks (runtimePatch times,
// Kueue's suspend and patch), the CEL rules, and the validating webhooks' refusals worded as
// kube-apiserver's ToStatusErr wraps controller-runtime's Denied (pkg/webhooks,
// plugins/*/Validate, jobset_webhook.go). The expected texts are built from upstream's format
// strings by hand.
#include "trainer_fixture.h"

#include "kubesim/controllers/kueue_trainjob.h"
#include "kubesim/controllers/simulation.h"
#include "kubesim/trainer_admission.h"

using namespace kubesim;
using namespace kubesim::testing;

namespace {

struct Admission {
  Store store;
  TrainerTypes t;
  Admission() {
    Simulation::ensure_types(store);
    t = TrainerTypes::find(store);
  }
  // Mutate, check the CEL rules, validate: what a create (old == nullptr) or update returns.
  std::vector<std::string> admit(json& obj, const json* old = nullptr, const ResourceType* rt = nullptr) {
    const ResourceType& type = rt ? *rt : *t.trainjobs;
    trainer_admission_mutate(store, type, obj, old);
    json causes = json::array();
    trainer_crd_rules(type, obj, old, causes);
    if (!causes.empty()) throw StatusError(422, "Invalid", causes.dump());
    return trainer_admission_validate(store, type, obj, old);
  }
};

json train_job(json spec, const std::string& name = "tj") {
  return {{"apiVersion", kTrainerApiVersion},
          {"kind", "TrainJob"},
          {"metadata", {{"name", name}, {"namespace", "default"}}},
          {"spec", std::move(spec)}};
}

std::string denial_of(Admission& a, json obj, const json* old = nullptr) {
  try {
    a.admit(obj, old);
  } catch (const StatusError& e) {
    return std::to_string(e.code) + " " + e.reason + ": " + e.message;
  }
  return "admitted";
}

const std::string kDenied = "403 Forbidden: admission webhook \"validator.trainjob.trainer.kubeflow.org\" denied the request: ";

}  // namespace

TEST_CASE("trainjob admission: CRD defaults and the patch times of the defaulting webhook", "[trainer][admission]") {
  Admission a;
  TRAINER_RUNTIMES_OR_SKIP(a.store);
  json tj = train_job(json::parse(R"({"runtimeRef": {"name": "torch-distributed"},
      "runtimePatches": [{"manager": "trainctl.io/submit"}]})"));
  a.admit(tj);
  CHECK(tj["spec"]["runtimeRef"] ==
        json::parse(R"({"name": "torch-distributed", "apiGroup": "trainer.kubeflow.org", "kind": "ClusterTrainingRuntime"})"));
  CHECK(tj["spec"]["suspend"] == false);
  CHECK(tj["spec"]["managedBy"] == "trainer.kubeflow.org/trainjob-controller");
  const std::string stamped = tj["spec"]["runtimePatches"][0].value("time", "");
  CHECK(!stamped.empty());
  // An update that leaves the patch alone keeps its time; one that changes it gets a new one.
  json same = tj;
  same["spec"]["runtimePatches"][0].erase("time");
  a.admit(same, &tj);
  CHECK(same["spec"]["runtimePatches"][0]["time"] == stamped);
  json changed = tj;
  changed["spec"]["suspend"] = true;
  changed["spec"]["runtimePatches"][0]["time"] = "2020-01-01T00:00:00Z";
  changed["spec"]["runtimePatches"][0]["trainingRuntimeSpec"] = {{"template", {{"metadata", {{"labels", {{"a", "b"}}}}}}}};
  a.admit(changed, &tj);
  CHECK(changed["spec"]["runtimePatches"][0]["time"] != "2020-01-01T00:00:00Z");
}

TEST_CASE("trainjob admission: unsupported kinds and missing runtimes are refused", "[trainer][admission]") {
  Admission a;
  TRAINER_RUNTIMES_OR_SKIP(a.store);
  CHECK(denial_of(a, train_job({{"runtimeRef", {{"name", "x"}, {"kind", "MyRuntime"}, {"apiGroup", "example.com"}}}})) ==
        kDenied + "unsupported runtime: MyRuntime.example.com");
  CHECK(denial_of(a, train_job({{"runtimeRef", {{"name", "nope"}}}})) ==
        kDenied +
            "spec.RuntimeRef: Invalid value: {\"name\":\"nope\",\"apiGroup\":\"trainer.kubeflow.org\",\"kind\":"
            "\"ClusterTrainingRuntime\"}: ClusterTrainingRuntime.trainer.kubeflow.org \"nope\" not found: specified "
            "clusterTrainingRuntime must be created before the TrainJob is created");
  CHECK(denial_of(a, train_job({{"runtimeRef", {{"name", "mine"}, {"kind", "TrainingRuntime"}}}})) ==
        kDenied +
            "spec.runtimeRef: Invalid value: {\"name\":\"mine\",\"apiGroup\":\"trainer.kubeflow.org\",\"kind\":"
            "\"TrainingRuntime\"}: TrainingRuntime.trainer.kubeflow.org \"mine\" not found: specified "
            "trainingRuntime must be created before the TrainJob is created");
}

TEST_CASE("trainjob admission: reserved PET_* and OMPI_* env are refused", "[trainer][admission]") {
  Admission a;
  TRAINER_RUNTIMES_OR_SKIP(a.store);
  CHECK(denial_of(a, train_job(json::parse(R"({"runtimeRef": {"name": "torch-distributed"}, "trainer": {"env": [
      {"name": "PET_NNODES", "value": "3"}, {"name": "OK", "value": "1"}, {"name": "PET_MASTER_ADDR", "value": "x"}]}})"))) ==
        kDenied +
            "spec.trainer.env: Invalid value: [{\"name\":\"PET_NNODES\",\"value\":\"3\"},{\"name\":\"OK\",\"value\":\"1\"},"
            "{\"name\":\"PET_MASTER_ADDR\",\"value\":\"x\"}]: must not have reserved envs, invalid envs configured: "
            "[PET_MASTER_ADDR PET_NNODES]");
  CHECK(denial_of(a, train_job(json::parse(R"({"runtimeRef": {"name": "deepspeed-distributed"}, "trainer": {"env": [
      {"name": "OMPI_MCA_plm_rsh_args", "value": "-v"}]}})"))) ==
        kDenied +
            "spec.trainer.env: Invalid value: [{\"name\":\"OMPI_MCA_plm_rsh_args\",\"value\":\"-v\"}]: must not have "
            "reserved envs, invalid envs configured: [OMPI_MCA_plm_rsh_args]");
  // PET_* are only reserved on torch runtimes.
  CHECK(denial_of(a, train_job(json::parse(R"({"runtimeRef": {"name": "jax-distributed"}, "trainer": {"env": [
      {"name": "PET_NNODES", "value": "3"}]}})"))) == "admitted");
}

TEST_CASE("trainjob admission: a deprecated ClusterTrainingRuntime is a warning", "[trainer][admission]") {
  Admission a;
  TRAINER_RUNTIMES_OR_SKIP(a.store);
  a.store.mutate(*a.t.clustertrainingruntimes, "", "jax-distributed", [](json& o) {
    o["metadata"]["labels"]["trainer.kubeflow.org/support"] = "deprecated";
    return true;
  });
  json tj = train_job({{"runtimeRef", {{"name", "jax-distributed"}}}});
  const auto warnings = a.admit(tj);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0] ==
        "Referenced ClusterTrainingRuntime \"jax-distributed\" is deprecated and will be removed in a future release "
        "of Kubeflow Trainer. See runtime deprecation policy: "
        "https://trainer.kubeflow.org/en/latest/operator-guides/runtime.html#runtime-deprecation-policy");
}

TEST_CASE("trainjob admission: runtimePatches must name the runtime's jobs and containers", "[trainer][admission]") {
  Admission a;
  TRAINER_RUNTIMES_OR_SKIP(a.store);
  auto patched = [](const std::string& patch) {
    return train_job(json::parse(R"({"runtimeRef": {"name": "torch-distributed"}, "runtimePatches": [)" + patch + "]}"));
  };
  CHECK(denial_of(a, patched(R"({"manager": "cli"})")) ==
        kDenied + "spec.runtimePatches.manager: Invalid value: \"cli\": must be a domain-prefixed path (such as \"acme.io/foo\")");
  // jobset.go Validate reads the runtime info of newRuntimeInfo, where the patches are already
  // merged: a patched replicated job or container the runtime lacks is there, so it passes.
  CHECK(denial_of(a, patched(R"({"manager": "a.io/b", "trainingRuntimeSpec": {"template": {"spec":
      {"replicatedJobs": [{"name": "worker"}]}}}})")) == "admitted");
  const std::string env = denial_of(a, patched(R"({"manager": "a.io/b", "trainingRuntimeSpec": {"template": {"spec":
      {"replicatedJobs": [{"name": "node", "template": {"spec": {"template": {"spec": {"containers": [
        {"name": "node", "env": [{"name": "X", "value": "1"}]}]}}}}}]}}}})"));
  CHECK(env.find("must not have envs for the dataset-initializer, model-initializer, node containers") != std::string::npos);
}

TEST_CASE("trainjob admission: runtimePatches change only while suspended and inactive", "[trainer][admission]") {
  Admission a;
  TRAINER_RUNTIMES_OR_SKIP(a.store);
  json tj = train_job({{"runtimeRef", {{"name", "torch-distributed"}}}});
  a.admit(tj);
  json next = tj;
  next["spec"]["runtimePatches"] = json::parse(R"([{"manager": "a.io/b"}])");
  CHECK(denial_of(a, next, &tj) ==
        kDenied + "spec.runtimePatches: Forbidden: RuntimePatches can only be modified when the TrainJob is suspended "
                  "before or after the update");
  next["spec"]["suspend"] = true;
  CHECK(denial_of(a, next, &tj) == "admitted");
  // A JobSet whose replicated job still has active Jobs.
  a.store.create(*a.t.jobsets, {{"metadata", {{"name", "tj"}, {"namespace", "default"}}},
                                {"spec", json::object()},
                                {"status", {{"replicatedJobsStatus", {{{"name", "node"}, {"active", 1}}}}}}});
  CHECK(denial_of(a, next, &tj) ==
        kDenied + "spec.runtimePatches: Forbidden: RuntimePatches cannot be modified when the JobSet's ReplicatedJob "
                  "node is still active");
}

TEST_CASE("trainjob admission: the CRD's CEL rules", "[trainer][admission]") {
  Admission a;
  TRAINER_RUNTIMES_OR_SKIP(a.store);
  const std::string bad_name = denial_of(a, train_job({{"runtimeRef", {{"name", "torch-distributed"}}}}, "a.b"));
  CHECK(bad_name.find("\"field\":\"<nil>\"") != std::string::npos);
  CHECK(bad_name.find("Invalid value: \\\"object\\\": metadata.name must match RFC 1035 DNS label format") != std::string::npos);
  json tj = train_job({{"runtimeRef", {{"name", "torch-distributed"}}}, {"trainer", {{"numNodes", 1}}}});
  a.admit(tj);
  json next = tj;
  next["spec"]["trainer"]["numNodes"] = 2;
  const std::string immutable = denial_of(a, next, &tj);
  CHECK(immutable.find("\"field\":\"spec.trainer\"") != std::string::npos);
  CHECK(immutable.find("Invalid value: \\\"object\\\": field is immutable") != std::string::npos);
  // suspend is mutable.
  json suspended = tj;
  suspended["spec"]["suspend"] = true;
  CHECK(denial_of(a, suspended, &tj) == "admitted");
}

TEST_CASE("kueue's TrainJob webhook suspends a queued TrainJob and always adds its patch", "[trainer][kueue]") {
  Admission a;
  TRAINER_RUNTIMES_OR_SKIP(a.store);
  ResourceType kueue;
  kueue.group = "kueue.x-k8s.io";
  kueue.version = "v1beta2";
  for (auto [kind, plural, ns] : {std::tuple{"ClusterQueue", "clusterqueues", false}, {"LocalQueue", "localqueues", true},
                                  {"Workload", "workloads", true}, {"ResourceFlavor", "resourceflavors", false}}) {
    kueue.kind = kind;
    kueue.plural = plural;
    kueue.namespaced = ns;
    a.store.register_type(kueue);
  }
  json queued = train_job({{"runtimeRef", {{"name", "torch-distributed"}}}});
  queued["metadata"]["labels"] = {{"kueue.x-k8s.io/queue-name", "lq"}};
  a.admit(queued);
  CHECK(queued["spec"]["suspend"] == true);
  CHECK(queued["spec"]["runtimePatches"] ==
        json::parse(R"([{"manager": "kueue.x-k8s.io/manager", "trainingRuntimeSpec": {"template": {"spec": {}}}}])"));
  json plain = train_job({{"runtimeRef", {{"name", "torch-distributed"}}}});
  a.admit(plain);
  CHECK(plain["spec"]["suspend"] == false);
  CHECK(plain["spec"]["runtimePatches"].size() == 1);
  json system = train_job({{"runtimeRef", {{"name", "torch-distributed"}}}});
  system["metadata"]["namespace"] = "kube-system";
  system["metadata"]["labels"] = {{"kueue.x-k8s.io/queue-name", "lq"}};
  a.admit(system);
  CHECK(system["spec"]["suspend"] == false);
  CHECK(!system["spec"].contains("runtimePatches"));
}

TEST_CASE("runtime admission: an ancestor's replicated job runs once and has its container", "[trainer][admission]") {
  Admission a;
  json rt = json::parse(R"({"apiVersion": "trainer.kubeflow.org/v1alpha1", "kind": "ClusterTrainingRuntime",
    "metadata": {"name": "r"}, "spec": {"template": {"spec": {"replicatedJobs": [{"name": "node", "replicas": 2,
      "template": {"metadata": {"labels": {"trainer.kubeflow.org/trainjob-ancestor-step": "trainer"}},
                   "spec": {"template": {"spec": {"containers": [{"name": "main", "image": "x"}]}}}}}]}}}})");
  try {
    a.admit(rt, nullptr, a.t.clustertrainingruntimes);
    FAIL("admitted");
  } catch (const StatusError& e) {
    CHECK(e.code == 403);
    CHECK_THAT(e.message, Catch::StartsWith(
                              "admission webhook \"validator.clustertrainingruntime.trainer.kubeflow.org\" denied the "
                              "request: [spec.template.spec.replicatedJobs[0].replicas: Invalid value: 2: always must be 1, "
                              "spec.template.spec.replicatedJobs[0].template.spec.template.spec.containers: Invalid value: "
                              "[{\"name\":\"main\",\"image\":\"x\""));
    CHECK_THAT(e.message, Catch::EndsWith(": must contain the required container for the ancestor: trainer]"));
  }
  rt["metadata"]["labels"]["trainer.kubeflow.org/webhook-validation"] = "disabled";
  CHECK_NOTHROW(a.admit(rt, nullptr, a.t.clustertrainingruntimes));
}

TEST_CASE("jobset admission: defaults, and names too long for the Jobs and pods", "[trainer][admission][jobset]") {
  Admission a;
  json js = json::parse(R"({"apiVersion": "jobset.x-k8s.io/v1alpha2", "kind": "JobSet",
    "metadata": {"name": "short", "namespace": "default"},
    "spec": {"failurePolicy": {"maxRestarts": 1, "rules": [{"action": "FailJobSet"}]},
      "replicatedJobs": [{"name": "workers", "template": {"spec": {"completions": 2, "parallelism": 2,
      "template": {"spec": {"containers": [{"name": "c", "image": "x"}]}}}}}]}})");
  a.admit(js, nullptr, a.t.jobsets);
  CHECK(js["spec"]["successPolicy"] == json::parse(R"({"operator": "All"})"));
  CHECK(js["spec"]["startupPolicy"] == json::parse(R"({"startupPolicyOrder": "AnyOrder"})"));
  CHECK(js["spec"]["network"] == json::parse(R"({"enableDNSHostnames": true, "publishNotReadyAddresses": true})"));
  CHECK(js["spec"]["failurePolicy"] == json::parse(R"({"maxRestarts": 1, "restartStrategy": "Recreate",
      "rules": [{"action": "FailJobSet", "name": "failurePolicyRule0"}]})"));
  const json& rj = js["spec"]["replicatedJobs"][0];
  CHECK(rj["replicas"] == 1);
  CHECK(rj["groupName"] == "default");
  CHECK(rj["template"]["spec"]["completionMode"] == "Indexed");
  CHECK(rj["template"]["spec"]["template"]["spec"]["restartPolicy"] == "OnFailure");
  // <name>-workers-0-1-abcde must fit in 63 characters: a 46-character name does not.
  json long_js = js;
  long_js["metadata"]["name"] = std::string(46, 'a');
  try {
    a.admit(long_js, nullptr, a.t.jobsets);
    FAIL("admitted");
  } catch (const StatusError& e) {
    CHECK(e.code == 422);
    CHECK(e.message == "admission webhook \"vjobset.kb.io\" denied the request: JobSet.jobset.x-k8s.io \"" +
                           std::string(46, 'a') + "\" is invalid: spec.replicatedJobs[0].name: Invalid value: \"" +
                           std::string(46, 'a') +
                           "-workers-0\": JobSet name is too long, pod names generated for this JobSet will exceed 63 "
                           "characters");
  }
  long_js["metadata"]["name"] = std::string(45, 'a');
  CHECK_NOTHROW(a.admit(long_js, nullptr, a.t.jobsets));
}
