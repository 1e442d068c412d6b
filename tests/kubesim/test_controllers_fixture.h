// A store, a log store and a manually clocked Simulation on the demo cluster (3 tainted
// masters without GPUs, 3 workers with 2 nvidia.com/gpu each), for controller tests.
#pragma once

#include <catch2/catch.hpp>
#include <chrono>
#include <memory>
#include <string>

#include "kubesim/controllers/context.h"
#include "kubesim/controllers/simulation.h"
#include "kubesim/logs.h"
#include "kubesim/seed.h"
#include "kubesim/store.h"

namespace kubesim::testing {

using namespace std::chrono_literals;

struct SimFixture {
  Store store;
  LogStore logs;
  std::unique_ptr<Simulation> sim;

  explicit SimFixture(bool demo = true, SimulationOptions opt = {}) {
    Simulation::ensure_types(store);
    if (demo) load_seed_file(store, std::string(TRAINCTL_SOURCE_DIR) + "/tools/kubesim/seeds/demo.yaml");
    opt.manual_clock = true;
    opt.manual_start_unix = 1'700'000'000;
    sim = std::make_unique<Simulation>(store, logs, opt);
  }

  const ResourceType& type(const std::string& group, const std::string& version, const std::string& plural) {
    const ResourceType* rt = store.find(group, version, plural);
    REQUIRE(rt != nullptr);
    return *rt;
  }
  const ResourceType& pods() { return type("", "v1", "pods"); }
  const ResourceType& pytorchjobs() { return type("kubeflow.org", "v1", "pytorchjobs"); }

  json create(const std::string& group, const std::string& version, const std::string& plural, json obj) {
    return store.create(type(group, version, plural), std::move(obj));
  }
  json get(const std::string& group, const std::string& version, const std::string& plural,
           const std::string& name, const std::string& ns = "default") {
    auto o = store.get(type(group, version, plural), ns, name);
    REQUIRE(o.has_value());
    return *o;
  }
  std::optional<json> find(const std::string& group, const std::string& version, const std::string& plural,
                           const std::string& name, const std::string& ns = "default") {
    return store.get(type(group, version, plural), ns, name);
  }
  json pod(const std::string& name, const std::string& ns = "default") {
    return get("", "v1", "pods", name, ns);
  }
  std::vector<json> list(const std::string& group, const std::string& version, const std::string& plural,
                         const std::string& ns = "default") {
    std::vector<json> out;
    for (const auto& o : store.list(type(group, version, plural), ns).items) out.push_back(*o);
    return out;
  }
  void step(std::chrono::milliseconds d) { sim->step(d); }
};

inline std::string env_value(const json& container, const std::string& name) {
  for (const auto& e : container.value("env", json::array()))
    if (e.value("name", "") == name) return e.value("value", "<valueFrom>");
  return "<unset>";
}

inline const json* find_condition(const json& obj, const std::string& type) {
  const auto& st = obj.at("status");
  if (!st.contains("conditions")) return nullptr;
  for (const auto& c : st["conditions"])
    if (c.value("type", "") == type) return &c;
  return nullptr;
}

inline std::string phase(const json& pod) { return pod.value("status", json::object()).value("phase", ""); }

inline json gpu_container(const std::string& name, const std::string& command, int gpus) {
  json c = {
      {"name", name}, {"image", "registry.example/train:1"}, {"command", json::array({"sh", "-c", command})}};
  if (gpus > 0) c["resources"] = {{"limits", {{"nvidia.com/gpu", gpus}}}};
  return c;
}

}  // namespace kubesim::testing
