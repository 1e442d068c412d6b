// Serving only the listed operators' custom resources (see operators.h).
#include "kubesim/operators.h"

#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace kubesim {

namespace {

using Resources = std::vector<std::pair<std::string, std::string>>;  // group, plural ("" = every plural)

const std::map<std::string, Resources>& operator_resources() {
  static const std::map<std::string, Resources> m = {
      {"training-operator", {{"kubeflow.org", "pytorchjobs"}, {"kubeflow.org", "tfjobs"}}},
      {"mpi-operator", {{"kubeflow.org", "mpijobs"}}},
      {"volcano", {{"batch.volcano.sh", ""}, {"scheduling.volcano.sh", ""}, {"bus.volcano.sh", ""}}},
      {"trainer", {{"trainer.kubeflow.org", ""}}},
      {"jobset", {{"jobset.x-k8s.io", ""}}},
      {"kueue", {{"kueue.x-k8s.io", ""}}},
  };
  return m;
}

bool belongs(const ResourceType& rt, const Resources& rs) {
  for (const auto& [group, plural] : rs)
    if (rt.group == group && (plural.empty() || rt.plural == plural)) return true;
  return false;
}

}  // namespace

void serve_only_operators(Store& store, const std::string& list) {
  std::set<std::string> wanted;
  std::stringstream ss(list);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (item.empty()) continue;
    if (item == "all") {  // every operator whose resources are here
      for (const auto& [name, rs] : operator_resources()) wanted.insert(name);
      wanted.erase("kueue");
      for (const ResourceType* rt : store.types())
        if (rt->group == "kueue.x-k8s.io") wanted.insert("kueue");
      continue;
    }
    if (!operator_resources().count(item))
      throw std::invalid_argument("--operators: unknown operator \"" + item +
                                  "\" (training-operator, mpi-operator, volcano, trainer, jobset, kueue or all)");
    wanted.insert(item);
  }
  if (wanted.count("trainer") && !wanted.count("jobset"))
    throw std::invalid_argument("--operators: trainer needs jobset (Kubeflow Trainer v2 runs TrainJobs as JobSets); "
                                "add jobset");
  if (wanted.count("kueue")) {
    bool served = false;
    for (const ResourceType* rt : store.types()) served = served || rt->group == "kueue.x-k8s.io";
    if (!served)
      throw std::invalid_argument("--operators: Kueue's CRDs are not loaded; pass --schemas DIR with its "
                                  "kueue.x-k8s.io_*.yaml, or leave kueue out");
  }
  std::vector<std::pair<std::string, std::string>> drop;
  for (const ResourceType* rt : store.types()) {
    if (store.is_builtin(*rt)) continue;
    for (const auto& [name, rs] : operator_resources())
      if (!wanted.count(name) && belongs(*rt, rs)) drop.emplace_back(rt->group, rt->plural);
  }
  for (const auto& [group, plural] : drop) store.unregister_type(group, plural);
}

}  // namespace kubesim
