// kubesim's minimal Kueue: Workloads for labelled jobs, FIFO admission against a
// ClusterQueue's nominal quota (StrictFIFO and BestEffortFIFO), suspend/unsuspend, queue
// status, quota freed when a job goes; which kinds it manages by its configured integrations.
// Expected values worked out by hand from the quota.
#include <catch2/catch.hpp>

#include "kubesim/controllers/kueue.h"
#include "kubesim/controllers/simulation.h"
#include "kubesim/kueue_model.h"
#include "kubesim/logs.h"
#include "kubesim/seed.h"

using namespace kubesim;
using namespace std::chrono_literals;

namespace {

// Kueue with kubeflow.org/pytorchjob enabled, as v0.9.0 to v0.18.x ship it (and as an admin
// of v0.19 enables it): these tests queue PyTorchJobs.
KueueConfig with_pytorchjob() {
  KueueConfig c;
  c.frameworks.insert("kubeflow.org/pytorchjob");
  return c;
}

struct KueueFixture {
  Store store;
  LogStore logs;
  std::unique_ptr<Simulation> sim;
  KueueTypes t;
  KueueConfig kueue;

  explicit KueueFixture(const std::string& strategy, int gpus, KueueConfig config = with_pytorchjob())
      : kueue(std::move(config)) {
    Simulation::ensure_types(store);
    for (auto [kind, plural, namespaced] : {std::tuple{"ClusterQueue", "clusterqueues", false},
                                            std::tuple{"LocalQueue", "localqueues", true},
                                            std::tuple{"Workload", "workloads", true},
                                            std::tuple{"ResourceFlavor", "resourceflavors", false}}) {
      ResourceType rt;
      rt.group = "kueue.x-k8s.io";
      rt.version = "v1beta2";
      rt.kind = kind;
      rt.plural = plural;
      rt.singular = trainctl_lower(kind);
      rt.namespaced = namespaced;
      rt.status_subresource = true;
      store.register_type(rt);
    }
    load_seed_file(store, std::string(TRAINCTL_SOURCE_DIR) + "/tools/kubesim/seeds/demo.yaml");
    SimulationOptions opt;
    opt.manual_clock = true;
    opt.manual_start_unix = 1'700'000'000;
    opt.default_outcome = "run-forever";
    opt.kueue = kueue;
    sim = std::make_unique<Simulation>(store, logs, opt);
    t = KueueTypes::find(store);
    REQUIRE(t.served());
    store.create(*t.resource_flavors, {{"metadata", {{"name", "f"}}}});
    store.create(*t.cluster_queues,
                 {{"metadata", {{"name", "cq"}}},
                  {"spec",
                   {{"queueingStrategy", strategy},
                    {"resourceGroups",
                     {{{"coveredResources", {"nvidia.com/gpu"}},
                       {"flavors", {{{"name", "f"}, {"resources", {{{"name", "nvidia.com/gpu"}, {"nominalQuota", gpus}}}}}}}}}}}}});
    store.create(*t.local_queues, {{"metadata", {{"name", "lq"}, {"namespace", "default"}}},
                                   {"spec", {{"clusterQueue", "cq"}}}});
  }

  static std::string trainctl_lower(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  }

  // A PyTorchJob of one Master with `gpus` GPUs in LocalQueue lq, as Kueue's webhook leaves it.
  void submit(const std::string& name, int gpus) {
    const ResourceType& rt = *store.find("kubeflow.org", "v1", "pytorchjobs");
    json job = json::parse(R"({"apiVersion": "kubeflow.org/v1", "kind": "PyTorchJob",
      "metadata": {"namespace": "default"},
      "spec": {"pytorchReplicaSpecs": {"Master": {"replicas": 1, "restartPolicy": "Never",
        "template": {"spec": {"containers": [{"name": "pytorch", "image": "pytorch/pytorch",
          "command": ["sleep", "3600"], "ports": [{"name": "pytorchjob-port", "containerPort": 23456}],
          "resources": {"limits": {}}}]}}}}}})");
    job["metadata"]["name"] = name;
    job["metadata"]["labels"] = {{kKueueQueueLabel, "lq"}};
    job["spec"]["pytorchReplicaSpecs"]["Master"]["template"]["spec"]["containers"][0]["resources"]["limits"] = {
        {"nvidia.com/gpu", gpus}};
    create(rt, std::move(job));
  }

  // Creates a job as the API server does with Kueue's webhook in front of it.
  void create(const ResourceType& rt, json job) {
    kueue_webhook_default(kueue, store, rt, job);
    store.create(rt, job);
    sim->step(1s);  // distinct creation times
  }

  bool has_workload(const std::string& job) {
    for (const auto& w : store.list(*t.workloads, "default").items)
      if ((*w)["metadata"]["ownerReferences"][0]["name"] == job) return true;
    return false;
  }

  json workload_of(const std::string& job) {
    for (const auto& w : store.list(*t.workloads, "default").items)
      if ((*w)["metadata"]["ownerReferences"][0]["name"] == job) return *w;
    FAIL("no Workload for " << job);
    return {};
  }
  bool suspended(const std::string& job, const char* plural = "pytorchjobs") {
    const json j = *store.get(*store.find("kubeflow.org", "v1", plural), "default", job);
    return j["spec"].value("runPolicy", json::object()).value("suspend", false);
  }
  json cq() { return *store.get(*t.cluster_queues, "", "cq"); }
};

std::string kueue_cond(const json& obj, const std::string& type) {
  for (const auto& c : obj.value("status", json::object()).value("conditions", json::array()))
    if (c["type"] == type) return c["status"].get<std::string>() + "/" + c["reason"].get<std::string>();
  return "";
}

}  // namespace

TEST_CASE("kueue: the webhook suspends a labelled job only when Kueue is served", "[kueue]") {
  KueueFixture fx("BestEffortFIFO", 4);
  const ResourceType& jobs = *fx.store.find("batch", "v1", "jobs");
  json labelled = {{"metadata", {{"labels", {{kKueueQueueLabel, "lq"}}}}}, {"spec", json::object()}};
  kueue_webhook_default(fx.kueue, fx.store, jobs, labelled);
  CHECK(labelled["spec"]["suspend"] == true);
  json plain = {{"metadata", json::object()}, {"spec", json::object()}};
  kueue_webhook_default(fx.kueue, fx.store, jobs, plain);
  CHECK_FALSE(plain["spec"].contains("suspend"));
  Store bare;
  json other = labelled;
  other["spec"].erase("suspend");
  kueue_webhook_default(fx.kueue, bare, *bare.find("batch", "v1", "jobs"), other);
  CHECK_FALSE(other["spec"].contains("suspend"));
  // batch/job not among the integrations: its webhook is a no-op.
  KueueConfig no_batch;
  no_batch.frameworks.erase("batch/job");
  json off = labelled;
  off["spec"].erase("suspend");
  kueue_webhook_default(no_batch, fx.store, jobs, off);
  CHECK_FALSE(off["spec"].contains("suspend"));
}

TEST_CASE("kueue: the configuration v0.19.2 ships leaves PyTorchJob and TFJob alone", "[kueue]") {
  const KueueConfig shipped;
  CHECK(shipped.frameworks.count("batch/job"));
  CHECK(shipped.frameworks.count("kubeflow.org/mpijob"));
  CHECK(shipped.frameworks.count("trainer.kubeflow.org/trainjob"));
  CHECK_FALSE(shipped.frameworks.count("kubeflow.org/pytorchjob"));
  CHECK_FALSE(shipped.frameworks.count("kubeflow.org/tfjob"));

  KueueFixture fx("BestEffortFIFO", 0, shipped);  // no quota: whatever is queued waits
  fx.submit("torch", 1);
  const ResourceType& tfjobs = *fx.store.find("kubeflow.org", "v1", "tfjobs");
  const json container = {{"name", "tensorflow"},
                          {"image", "busybox"},
                          {"command", {"sleep", "60"}},
                          {"resources", {{"limits", {{"nvidia.com/gpu", 1}}}}}};
  const json pod = {{"spec", {{"restartPolicy", "Never"}, {"containers", json::array({container})}}}};
  const json labels = {{kKueueQueueLabel, "lq"}};
  fx.create(tfjobs, {{"apiVersion", "kubeflow.org/v1"},
                     {"kind", "TFJob"},
                     {"metadata", {{"name", "tf"}, {"namespace", "default"}, {"labels", labels}}},
                     {"spec", {{"tfReplicaSpecs", {{"Worker", {{"replicas", 1}, {"template", pod}}}}}}}});
  const ResourceType& jobs = *fx.store.find("batch", "v1", "jobs");
  fx.create(jobs, {{"apiVersion", "batch/v1"},
                   {"kind", "Job"},
                   {"metadata", {{"name", "plain"}, {"namespace", "default"}, {"labels", labels}}},
                   {"spec", {{"template", pod}}}});
  fx.sim->step(5s);
  // No webhook suspended them and no reconciler made them a Workload: they run past the queue.
  CHECK_FALSE(fx.suspended("torch"));
  CHECK_FALSE(fx.has_workload("torch"));
  CHECK_FALSE(fx.suspended("tf", "tfjobs"));
  CHECK_FALSE(fx.has_workload("tf"));
  // batch/job is enabled: the Job is held by its Workload, which the quota does not admit.
  CHECK((*fx.store.get(jobs, "default", "plain"))["spec"]["suspend"] == true);
  CHECK(fx.has_workload("plain"));
}

TEST_CASE("kueue: the configuration names Kueue's integrations and visibility versions", "[kueue]") {
  const KueueConfig c = KueueConfig::parse("batch/job, kubeflow.org/pytorchjob", "v1beta1");
  CHECK(c.frameworks == std::set<std::string>{"batch/job", "kubeflow.org/pytorchjob"});
  CHECK(c.visibility_order() == std::vector<std::string>{"v1beta1"});
  CHECK(KueueConfig{}.visibility_order() == std::vector<std::string>{"v1beta2", "v1beta1"});
  CHECK_THROWS_WITH(KueueConfig::parse("kubeflow.org/pytorchjobs", "v1beta2"),
                    Catch::Contains("\"kubeflow.org/pytorchjobs\" is not one of Kueue's integrations"));
  CHECK_THROWS_WITH(KueueConfig::parse("batch/job", "v1alpha1"), Catch::Contains("\"v1alpha1\" is not v1beta1 or v1beta2"));
}

TEST_CASE("kueue: workload names as jobframework makes them", "[kueue]") {
  // sha1("PyTorchJob\nkubeflow.org\nq1\nuid-1") starts with the five hex digits checked by
  // `printf 'PyTorchJob\nkubeflow.org\nq1\nuid-1' | sha1sum`.
  const std::string name = kueue_workload_name("PyTorchJob", "kubeflow.org", "q1", "uid-1");
  CHECK(name.rfind("pytorchjob-q1-", 0) == 0);
  CHECK(name.size() == std::string("pytorchjob-q1-").size() + 5);
  CHECK(kueue_workload_name("Job", "batch", std::string(300, 'a'), "u").size() == 253);
}

TEST_CASE("kueue: 4 GPUs of quota admit two jobs of 2 in FIFO order; the third waits until one goes", "[kueue]") {
  KueueFixture fx("StrictFIFO", 4);
  fx.submit("q1", 2);
  fx.submit("q2", 2);
  fx.submit("q3", 2);
  fx.sim->step(5s);
  CHECK(kueue_cond(fx.workload_of("q1"), "Admitted") == "True/Admitted");
  CHECK(kueue_cond(fx.workload_of("q2"), "QuotaReserved") == "True/QuotaReserved");
  const json w3 = fx.workload_of("q3");
  CHECK(kueue_cond(w3, "QuotaReserved") == "False/Pending");
  CHECK(w3["status"]["conditions"][0]["message"] ==
        "couldn't assign flavors to pod set master: insufficient unused quota for nvidia.com/gpu in flavor f, 2 more "
        "needed");
  CHECK(w3["spec"]["podSets"][0]["count"] == 1);
  CHECK_FALSE(fx.suspended("q1"));
  CHECK_FALSE(fx.suspended("q2"));
  CHECK(fx.suspended("q3"));
  CHECK(fx.workload_of("q1")["status"]["admission"]["podSetAssignments"][0]["resourceUsage"]["nvidia.com/gpu"] == "2");
  json st = fx.cq()["status"];
  CHECK(st["pendingWorkloads"] == 1);
  CHECK(st["admittedWorkloads"] == 2);
  CHECK(st["flavorsUsage"][0]["resources"][0]["total"] == "4");
  const json lq = *fx.store.get(*fx.t.local_queues, "default", "lq");
  CHECK(lq["status"]["pendingWorkloads"] == 1);
  CHECK(lq["status"]["admittedWorkloads"] == 2);
  // The pending order the visibility API answers.
  auto pending = kueue_pending_workloads(fx.store, fx.t, "cq");
  REQUIRE(pending.size() == 1);
  CHECK((*pending[0])["metadata"]["ownerReferences"][0]["name"] == "q3");

  fx.store.remove(*fx.store.find("kubeflow.org", "v1", "pytorchjobs"), "default", "q1");
  fx.sim->step(5s);
  CHECK(kueue_cond(fx.workload_of("q3"), "Admitted") == "True/Admitted");
  CHECK_FALSE(fx.suspended("q3"));
  st = fx.cq()["status"];
  CHECK(st["pendingWorkloads"] == 0);
  CHECK(st["admittedWorkloads"] == 2);
}

TEST_CASE("kueue: StrictFIFO blocks behind a workload that does not fit, BestEffortFIFO passes it over", "[kueue]") {
  for (const std::string strategy : {"StrictFIFO", "BestEffortFIFO"}) {
    INFO(strategy);
    KueueFixture fx(strategy, 4);
    fx.submit("small", 2);
    fx.submit("big", 4);
    fx.submit("late", 2);
    fx.sim->step(5s);
    CHECK_FALSE(fx.suspended("small"));
    CHECK(fx.suspended("big"));
    CHECK(fx.suspended("late") == (strategy == "StrictFIFO"));
    CHECK(fx.cq()["status"]["pendingWorkloads"] == (strategy == "StrictFIFO" ? 2 : 1));
  }
}
