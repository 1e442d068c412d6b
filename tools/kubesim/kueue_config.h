// Kueue's configuration as kubesim models it (kubesim --kueue-integrations,
// --kueue-visibility-versions): what SimulationOptions and ServerOptions carry, so that the
// job webhook, the job reconcilers and the visibility API agree. Defaults: Kueue v0.19.2.
#pragma once

#include <set>
#include <string>
#include <vector>

namespace kubesim {

struct ResourceType;

struct KueueConfig {
  // integrations.frameworks (apis/config/v1beta2 Integrations): only an enabled integration
  // gets its reconciler and a webhook that suspends; a disabled one's webhook is a no-op
  // (pkg/controller/jobframework/setup.go setupControllers, WithNoopWebhook;
  // pkg/util/webhook/noop_webhook.go), so its jobs start unsuspended, queue label or not.
  std::set<std::string> frameworks = default_frameworks();
  // The versions of visibility.kueue.x-k8s.io registered by an APIService
  // (config/components/visibility/apiservice_v1beta1.yaml, apiservice_v1beta2.yaml).
  std::set<std::string> visibility_versions = {"v1beta1", "v1beta2"};

  // v0.19.2 config/components/manager/controller_manager_config.yaml and
  // charts/kueue/values.yaml: kubeflow.org/pytorchjob, tfjob, paddlejob, xgboostjob and
  // jaxjob are commented out from v0.19.0 (on in v0.9.0 to v0.18.x).
  static std::set<std::string> default_frameworks();
  // Kueue's built-in integration names (pkg/controller/jobs/*/ FrameworkName); the config's
  // validation refuses any other (pkg/config/validation.go validateIntegrations).
  static const std::set<std::string>& known_frameworks();
  // From "a,b,c" lists; throws std::runtime_error naming an unknown framework or version.
  static KueueConfig parse(const std::string& frameworks, const std::string& visibility_versions);

  // A job resource Kueue manages here (kueue_manages) whose integration is enabled.
  bool manages(const ResourceType& rt) const;
  // Whether Kueue's TrainJob integration is enabled: its webhook suspends a queued TrainJob
  // and its reconciler admits it (controllers/kueue_trainjob.cpp, which has its own rules).
  bool manages_trainjobs() const;
  // The served visibility versions, preferred first: the aggregator orders APIServices of
  // one versionPriority (100 for both) by CompareKubeAwareVersionStrings (kube-aggregator
  // pkg/apis/apiregistration/v1/helper/helpers.go ByVersionPriority): v1beta2, v1beta1.
  std::vector<std::string> visibility_order() const;
};

// The integration name of a job resource, as Kueue's FrameworkName spells it: "batch/job",
// "kubeflow.org/pytorchjob", "kubeflow.org/tfjob", "kubeflow.org/mpijob".
std::string kueue_framework(const ResourceType& rt);

}  // namespace kubesim
