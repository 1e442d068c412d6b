// A manually clocked kubesim with Kubeflow Trainer v2.3.0's default runtimes loaded (from
// ../shared/trainer-runtimes or the cache scripts/fetch-schemas.sh fills), for the Trainer and
// JobSet controller tests. Without the runtimes a test is skipped (a warning), except under
// CI=true where their absence fails it (TRAINER_RUNTIMES_OR_SKIP).
#pragma once

#include <catch2/catch.hpp>

#include <cstdlib>

#include "kubesim/builtin_types.h"
#include "kubesim/controllers/trainer_model.h"
#include "kubesim/trainer_runtimes.h"
#include "support/paths.h"
#include "test_controllers_fixture.h"

namespace kubesim::testing {

inline bool in_ci() {
  const char* ci = std::getenv("CI");
  return ci && std::string(ci) == "true";
}

// Loads the upstream runtimes; false (and the reason, as a warning) when they are not here.
inline bool load_upstream_runtimes(Store& store) {
  register_builtin_crds(store);
  const auto dir = trainctl::testing::find_trainer_runtimes_dir();
  if (!dir) {
    if (in_ci()) FAIL("no Kubeflow Trainer runtimes (../shared/trainer-runtimes or scripts/fetch-schemas.sh); CI=true");
    WARN("SKIPPED: no Kubeflow Trainer v2.3.0 runtimes (run scripts/fetch-schemas.sh)");
    return false;
  }
  REQUIRE(load_trainer_runtimes(store, *dir) >= 5);
  return true;
}

#define TRAINER_RUNTIMES_OR_SKIP(store) \
  if (!::kubesim::testing::load_upstream_runtimes(store)) return

struct TrainerSim : SimFixture {
  TrainerTypes t;
  explicit TrainerSim(SimulationOptions opt = {}) : SimFixture(true, opt), t(TrainerTypes::find(store)) {}

  // A TrainJob in default, created as kube-apiserver stores it (CRD defaults; no webhooks).
  json train_job(const std::string& name, json spec, json annotations = json::object()) {
    json tj = {{"apiVersion", kTrainerApiVersion},
               {"kind", "TrainJob"},
               {"metadata", {{"name", name}, {"namespace", "default"}}},
               {"spec", std::move(spec)}};
    if (!annotations.empty()) tj["metadata"]["annotations"] = annotations;
    return store.create(*t.trainjobs, trainjob_with_defaults(tj));
  }
  json trainjob(const std::string& name) { return get(kTrainerGroup, "v1alpha1", "trainjobs", name); }
  json jobset(const std::string& name) { return get("jobset.x-k8s.io", "v1alpha2", "jobsets", name); }
  std::optional<json> find_jobset(const std::string& name) {
    return find("jobset.x-k8s.io", "v1alpha2", "jobsets", name);
  }
  std::vector<json> pods_of(const std::string& jobset_name) {
    std::vector<json> out;
    for (const auto& p : list("", "v1", "pods"))
      if (p["metadata"].value("labels", json::object()).value(kJobSetNameKey, "") == jobset_name) out.push_back(p);
    std::sort(out.begin(), out.end(), [](const json& a, const json& b) {
      return a["spec"].value("hostname", "") < b["spec"].value("hostname", "");
    });
    return out;
  }
  // The container's log as one text.
  std::string log_of(const json& pod, const std::string& container = "node") {
    std::string out;
    for (const auto& l : logs.lines("default", meta_name(pod), container)) out += l.text + "\n";
    return out;
  }
  void set_suspend(const std::string& name, bool suspend) {
    store.mutate(*t.trainjobs, "default", name, [&](json& o) {
      o["spec"]["suspend"] = suspend;
      return true;
    });
  }
  std::vector<json> events_of(const std::string& name, const std::string& reason) {
    std::vector<json> out;
    for (const auto& e : list("", "v1", "events"))
      if (e["involvedObject"].value("name", "") == name && e.value("reason", "") == reason) out.push_back(e);
    return out;
  }
};

// A copy of obj's condition of that type (null when it has none): safe on a temporary object.
inline json condition_of(const json& obj, const std::string& type) {
  const json* c = find_condition(obj, type);
  return c ? *c : json();
}

inline json torch_trainer(int nodes, const std::string& command = "torchrun /workspace/train.py") {
  return {{"numNodes", nodes}, {"command", json::array({"sh", "-c", command})}};
}

}  // namespace kubesim::testing
