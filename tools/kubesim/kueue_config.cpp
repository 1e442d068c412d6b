// Kueue's configuration in kubesim (see kueue_config.h).
#include "kubesim/kueue_config.h"

#include <sstream>
#include <stdexcept>

#include "core/text.h"
#include "kubesim/kueue_model.h"

namespace kubesim {

namespace {

// "a, b,c" -> {a, b, c}.
std::set<std::string> kueue_config_list(const std::string& list) {
  std::set<std::string> out;
  std::istringstream in(list);
  for (std::string item; std::getline(in, item, ',');)
    if (std::string name = trainctl::trim(item); !name.empty()) out.insert(name);
  return out;
}

}  // namespace

std::set<std::string> KueueConfig::default_frameworks() {
  return {"batch/job",
          "kubeflow.org/mpijob",
          "ray.io/rayjob",
          "ray.io/raycluster",
          "ray.io/rayservice",
          "jobset.x-k8s.io/jobset",
          "workload.codeflare.dev/appwrapper",
          "trainer.kubeflow.org/trainjob",
          "pod",
          "deployment",
          "statefulset",
          "leaderworkerset.x-k8s.io/leaderworkerset"};
}

const std::set<std::string>& KueueConfig::known_frameworks() {
  static const std::set<std::string> known = [] {
    std::set<std::string> k = default_frameworks();
    k.insert({"kubeflow.org/paddlejob", "kubeflow.org/pytorchjob", "kubeflow.org/tfjob", "kubeflow.org/xgboostjob",
              "kubeflow.org/jaxjob", "sparkoperator.k8s.io/sparkapplication"});
    return k;
  }();
  return known;
}

KueueConfig KueueConfig::parse(const std::string& frameworks, const std::string& visibility_versions) {
  KueueConfig c;
  c.frameworks = kueue_config_list(frameworks);
  for (const auto& f : c.frameworks)
    if (!known_frameworks().count(f))
      throw std::runtime_error("--kueue-integrations: \"" + f + "\" is not one of Kueue's integrations");
  c.visibility_versions = kueue_config_list(visibility_versions);
  for (const auto& v : c.visibility_versions)
    if (v != "v1beta1" && v != "v1beta2")
      throw std::runtime_error("--kueue-visibility-versions: \"" + v + "\" is not v1beta1 or v1beta2");
  return c;
}

bool KueueConfig::manages(const ResourceType& rt) const {
  return kueue_manages(rt) && frameworks.count(kueue_framework(rt));
}

bool KueueConfig::manages_trainjobs() const { return frameworks.count("trainer.kubeflow.org/trainjob") > 0; }

std::vector<std::string> KueueConfig::visibility_order() const {
  std::vector<std::string> out;
  for (const char* v : {"v1beta2", "v1beta1"})
    if (visibility_versions.count(v)) out.push_back(v);
  return out;
}

std::string kueue_framework(const ResourceType& rt) { return rt.group + "/" + trainctl::ascii_lower(rt.kind); }

}  // namespace kubesim
