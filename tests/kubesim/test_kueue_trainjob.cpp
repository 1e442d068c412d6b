// Kueue v0.19.2's TrainJob integration in kubesim (pkg/controller/jobs/trainjob): the Workload
// of a queued TrainJob, its podSets from the JobSet the Trainer would build, admission filling
// Kueue's runtimePatch (podset labels, the flavor's nodeSelector) and unsuspending, a TrainJob
// that does not fit staying suspended, and the Workload finished with the TrainJob.
#include "trainer_fixture.h"

#include "kubesim/controllers/kueue.h"
#include "kubesim/controllers/kueue_trainjob.h"
#include "kubesim/trainer_admission.h"

using namespace kubesim;
using namespace kubesim::testing;
using namespace std::chrono_literals;

namespace {

struct KueueTrainerSim {
  Store store;
  LogStore logs;
  std::unique_ptr<Simulation> sim;
  TrainerTypes t;
  KueueTypes k;
  bool runtimes = false;

  explicit KueueTrainerSim(int gpus) {
    Simulation::ensure_types(store);
    ResourceType rt;
    rt.group = "kueue.x-k8s.io";
    rt.version = "v1beta2";
    rt.status_subresource = true;
    for (auto [kind, plural, ns] : {std::tuple{"ClusterQueue", "clusterqueues", false},
                                    {"LocalQueue", "localqueues", true},
                                    {"Workload", "workloads", true},
                                    {"ResourceFlavor", "resourceflavors", false}}) {
      rt.kind = kind;
      rt.plural = plural;
      rt.singular = plural;
      rt.namespaced = ns;
      store.register_type(rt);
    }
    load_seed_file(store, std::string(TRAINCTL_SOURCE_DIR) + "/tools/kubesim/seeds/demo.yaml");
    runtimes = load_upstream_runtimes(store);
    SimulationOptions opt;
    opt.manual_clock = true;
    opt.manual_start_unix = 1'700'000'000;
    opt.default_outcome = "run-forever";
    sim = std::make_unique<Simulation>(store, logs, opt);
    t = TrainerTypes::find(store);
    k = KueueTypes::find(store);
    store.create(*k.resource_flavors,
                 {{"metadata", {{"name", "v100"}}}, {"spec", {{"nodeLabels", {{"aliyun.accelerator/nvidia_name", "Tesla-V100-SXM2-16GB"}}}}}});
    store.create(*k.cluster_queues,
                 {{"metadata", {{"name", "cq"}}},
                  {"spec",
                   {{"resourceGroups",
                     {{{"coveredResources", {"nvidia.com/gpu"}},
                       {"flavors", {{{"name", "v100"}, {"resources", {{{"name", "nvidia.com/gpu"}, {"nominalQuota", gpus}}}}}}}}}}}}});
    store.create(*k.local_queues, {{"metadata", {{"name", "lq"}, {"namespace", "default"}}}, {"spec", {{"clusterQueue", "cq"}}}});
  }

  // Created through the admission kube-apiserver runs (Kueue's webhook included).
  void submit(const std::string& name, int nodes, int gpus) {
    json tj = {{"apiVersion", kTrainerApiVersion},
               {"kind", "TrainJob"},
               {"metadata", {{"name", name}, {"namespace", "default"}, {"labels", {{kKueueQueueLabel, "lq"}}}}},
               {"spec",
                {{"runtimeRef", {{"name", "torch-distributed"}}},
                 {"trainer",
                  {{"numNodes", nodes},
                   {"command", {"torchrun", "train.py"}},
                   {"resourcesPerNode", {{"limits", {{"nvidia.com/gpu", gpus}}}}}}}}}};
    trainer_admission_mutate(store, *t.trainjobs, tj, nullptr);
    store.create(*t.trainjobs, tj);
  }
  json trainjob(const std::string& name) { return *store.get(*t.trainjobs, "default", name); }
  std::optional<json> workload(const std::string& name) {
    for (const auto& w : store.list(*k.workloads, "default").items)
      if ((*w)["metadata"]["ownerReferences"][0].value("name", "") == name) return *w;
    return std::nullopt;
  }
};

}  // namespace

TEST_CASE("kueue trainjob: the Workload's podSets, admission fills the patch and unsuspends", "[trainer][kueue]") {
  KueueTrainerSim f(4);
  if (!f.runtimes) return;
  f.submit("a", 2, 2);
  f.sim->step(1s);
  const auto wl = f.workload("a");
  REQUIRE(wl);
  CHECK(meta_name(*wl).rfind("trainjob-a-", 0) == 0);
  CHECK((*wl)["spec"]["queueName"] == "lq");
  REQUIRE((*wl)["spec"]["podSets"].size() == 1);
  CHECK((*wl)["spec"]["podSets"][0]["name"] == "node");
  CHECK((*wl)["spec"]["podSets"][0]["count"] == 2);
  f.sim->step(2s);
  const json tj = f.trainjob("a");
  CHECK(tj["spec"]["suspend"] == false);
  const json& patch = tj["spec"]["runtimePatches"][0];
  CHECK(patch["manager"] == "kueue.x-k8s.io/manager");
  CHECK(!patch.value("time", "").empty());  // stamped by the Trainer's defaulter on Kueue's update
  const json pod = patch["trainingRuntimeSpec"]["template"]["spec"]["replicatedJobs"][0]["template"]["spec"]["template"];
  CHECK(pod["metadata"]["labels"] == json::parse(R"({"kueue.x-k8s.io/cluster-queue-name": "cq",
      "kueue.x-k8s.io/local-queue-name": "lq", "kueue.x-k8s.io/podset": "node"})"));
  CHECK(pod["metadata"]["annotations"]["kueue.x-k8s.io/workload"] == meta_name(*wl));
  CHECK(pod["spec"]["nodeSelector"] == json::parse(R"({"aliyun.accelerator/nvidia_name": "Tesla-V100-SXM2-16GB"})"));
  f.sim->step(5s);
  std::vector<json> pods;
  for (const auto& p : f.store.list(*f.t.pods, "default").items)
    if (label(*p, kJobSetNameKey) == "a") pods.push_back(*p);
  REQUIRE(pods.size() == 2);
  CHECK(pods[0]["spec"]["nodeSelector"]["aliyun.accelerator/nvidia_name"] == "Tesla-V100-SXM2-16GB");
  CHECK(label(pods[0], "kueue.x-k8s.io/podset") == "node");
}

TEST_CASE("kueue trainjob: a TrainJob beyond the quota stays suspended with no JobSet pods", "[trainer][kueue]") {
  KueueTrainerSim f(4);
  if (!f.runtimes) return;
  f.submit("first", 2, 2);
  f.sim->step(3s);
  f.submit("second", 1, 2);
  f.sim->step(3s);
  CHECK(f.trainjob("first")["spec"]["suspend"] == false);
  const json second = f.trainjob("second");
  CHECK(second["spec"]["suspend"] == true);
  const json* suspended = find_condition(second, "Suspended");
  REQUIRE(suspended);
  CHECK((*suspended)["reason"] == "Suspended");
  CHECK(f.store.get(*f.t.jobsets, "default", "second")->at("spec")["suspend"] == true);
  const auto job = f.store.get(*f.t.jobs, "default", "second-node-0");
  CHECK((!job || job->at("spec")["suspend"] == true));
  // The first one goes: the second is admitted.
  f.store.remove(*f.t.trainjobs, "default", "first");
  f.sim->step(5s);
  CHECK(f.trainjob("second")["spec"]["suspend"] == false);
}

TEST_CASE("kueue trainjob: a complete TrainJob finishes its Workload", "[trainer][kueue]") {
  KueueTrainerSim f(4);
  if (!f.runtimes) return;
  f.submit("done", 1, 1);
  f.store.mutate(*f.t.trainjobs, "default", "done", [](json& o) {
    o["metadata"]["annotations"] = {{kOutcomeAnnotation, "succeed"}, {kDurationAnnotation, "10s"}};
    return true;
  });
  f.sim->step(30s);
  REQUIRE(condition_true(f.trainjob("done"), "Complete"));
  const auto wl = f.workload("done");
  REQUIRE(wl);
  CHECK(condition_true(*wl, "Finished"));
}
