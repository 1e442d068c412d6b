#include "kubesim/builtin_types.h"

#include <filesystem>
#include <stdexcept>

#include "core/text.h"
#include "kubesim/crd_objects.h"
#include "kubesim/rbac.h"

namespace kubesim {

namespace {

ResourceType make(std::string group, std::string version, std::string kind, std::string plural,
                  std::string singular, bool namespaced, std::vector<std::string> shorts,
                  std::vector<std::string> categories, bool status) {
  ResourceType rt;
  rt.group = std::move(group);
  rt.version = std::move(version);
  rt.kind = std::move(kind);
  rt.plural = std::move(plural);
  rt.singular = std::move(singular);
  rt.namespaced = namespaced;
  rt.short_names = std::move(shorts);
  rt.categories = std::move(categories);
  rt.status_subresource = status;
  return rt;
}

}  // namespace

std::vector<ResourceType> builtin_core_types() {
  const std::vector<std::string> all = {"all"};
  std::vector<ResourceType> types = {
      make("", "v1", "Pod", "pods", "pod", true, {"po"}, all, true),
      make("", "v1", "Service", "services", "service", true, {"svc"}, all, true),
      // Endpoints, as kube-apiserver's service proxy resolves a Service's address from them
      // (service_proxy.h); kubesim has no endpoints controller: they are written by hand.
      make("", "v1", "Endpoints", "endpoints", "endpoints", true, {"ep"}, {}, false),
      make("", "v1", "ConfigMap", "configmaps", "configmap", true, {"cm"}, {}, false),
      make("", "v1", "Secret", "secrets", "secret", true, {}, {}, false),
      make("", "v1", "PersistentVolumeClaim", "persistentvolumeclaims", "persistentvolumeclaim", true,
           {"pvc"}, {}, true),
      make("", "v1", "Namespace", "namespaces", "namespace", false, {"ns"}, {}, true),
      make("", "v1", "Node", "nodes", "node", false, {"no"}, {}, true),
      make("", "v1", "Event", "events", "event", true, {"ev"}, {}, false),
      make("", "v1", "ResourceQuota", "resourcequotas", "resourcequota", true, {"quota"}, {}, true),
      make("", "v1", "ServiceAccount", "serviceaccounts", "serviceaccount", true, {"sa"}, {}, false),
      make("apps", "v1", "Deployment", "deployments", "deployment", true, {"deploy"}, all, true),
      make("apps", "v1", "ReplicaSet", "replicasets", "replicaset", true, {"rs"}, all, true),
      make("batch", "v1", "Job", "jobs", "job", true, {}, all, true),
      make("scheduling.k8s.io", "v1", "PriorityClass", "priorityclasses", "priorityclass", false, {"pc"},
           {}, false),
      // Served read-mostly: the CRDs of the custom resources kubesim serves (crd_objects.h).
      make("apiextensions.k8s.io", "v1", "CustomResourceDefinition", "customresourcedefinitions",
           "customresourcedefinition", false, {"crd", "crds"}, {"api-extensions"}, true),
  };
  for (auto& rt : rbac_types()) types.push_back(std::move(rt));
  return types;
}

std::vector<ResourceType> builtin_crd_types() {
  return {
      make("kubeflow.org", "v1", "PyTorchJob", "pytorchjobs", "pytorchjob", true, {}, {}, true),
      make("kubeflow.org", "v1", "TFJob", "tfjobs", "tfjob", true, {}, {}, true),
      make("kubeflow.org", "v2beta1", "MPIJob", "mpijobs", "mpijob", true, {}, {}, true),
      make("batch.volcano.sh", "v1alpha1", "Job", "jobs", "job", true, {"vcjob", "vj"}, {}, true),
      make("scheduling.volcano.sh", "v1beta1", "PodGroup", "podgroups", "podgroup", true,
           {"pg", "podgroup-v1beta1"}, {}, false),
      make("scheduling.volcano.sh", "v1beta1", "Queue", "queues", "queue", false, {"q", "queue-v1beta1"}, {},
           true),
      // volcano v1.15.1 config/crd/volcano/bases/bus.volcano.sh_commands.yaml: no short names, no status.
      make("bus.volcano.sh", "v1alpha1", "Command", "commands", "command", true, {}, {}, false),
      // Kubeflow Trainer v2.3.0 (manifests/base/crds/trainer.kubeflow.org_*.yaml: no short names, only
      // TrainJob has a status subresource) and JobSet v0.12.0 (config/components/crd/bases).
      make("trainer.kubeflow.org", "v1alpha1", "TrainJob", "trainjobs", "trainjob", true, {}, {}, true),
      make("trainer.kubeflow.org", "v1alpha1", "TrainingRuntime", "trainingruntimes", "trainingruntime", true, {},
           {}, false),
      make("trainer.kubeflow.org", "v1alpha1", "ClusterTrainingRuntime", "clustertrainingruntimes",
           "clustertrainingruntime", false, {}, {}, false),
      make("jobset.x-k8s.io", "v1alpha2", "JobSet", "jobsets", "jobset", true, {}, {}, true),
  };
}

void register_builtin_crds(Store& store) {
  for (const auto& rt : builtin_crd_types())
    if (!store.find(rt.group, rt.version, rt.plural)) store.register_type(rt);
}

std::vector<ResourceType> types_from_crd(const json& crd) {
  if (crd.value("kind", "") != "CustomResourceDefinition") return {};
  const json& spec = crd.at("spec");
  const json& names = spec.at("names");
  std::vector<ResourceType> out;
  std::string storage;
  for (const auto& v : spec.value("versions", json::array()))
    if (v.value("storage", false)) storage = v.value("name", "");
  for (const auto& v : spec.value("versions", json::array())) {
    if (!v.value("served", true)) continue;
    ResourceType rt;
    rt.group = spec.at("group").get<std::string>();
    rt.version = v.at("name").get<std::string>();
    rt.kind = names.at("kind").get<std::string>();
    rt.plural = names.at("plural").get<std::string>();
    rt.singular = names.value("singular", "");
    if (rt.singular.empty()) rt.singular = trainctl::ascii_lower(rt.kind);
    rt.namespaced = spec.value("scope", "Namespaced") == "Namespaced";
    rt.short_names = names.value("shortNames", std::vector<std::string>{});
    rt.categories = names.value("categories", std::vector<std::string>{});
    rt.status_subresource = v.contains("subresources") && v["subresources"].contains("status");
    rt.storage_version = storage;
    out.push_back(rt);
  }
  return out;
}

size_t register_crds_from_dir(Store& store, const std::string& dir) {
  if (!std::filesystem::is_directory(dir)) throw std::runtime_error("no CRD directory " + dir);
  size_t n = 0;
  for (const auto& doc : load_crd_documents(dir)) {
    for (const auto& rt : types_from_crd(doc)) {
      if (store.find(rt.group, rt.version, rt.plural)) continue;  // keep the existing (same) type
      store.register_type(rt);
      ++n;
    }
  }
  return n;
}

}  // namespace kubesim
