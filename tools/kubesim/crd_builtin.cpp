// The CRDs kubesim builds for its built-in custom resources, when no CRD document is loaded
// (see crd_objects.h builtin_crd_document).
#include <map>

#include "kubesim/crd_objects.h"

namespace kubesim {

namespace {

using FieldTypes = std::vector<std::pair<const char*, const char*>>;

struct KnownSchema {
  FieldTypes spec, status;
};

// The top-level spec/status fields (and their types) of the CRDs kubesim emulates without
// --schemas: training-operator v1.9.0 (manifests/base/crds/kubeflow.org_pytorchjobs.yaml,
// kubeflow.org_tfjobs.yaml),
// mpi-operator v0.8.0 (manifests/base/kubeflow.org_mpijobs.yaml), volcano v1.15.1
// (config/crd/volcano/bases/*.yaml), Kubeflow Trainer v2.3.0
// (manifests/base/crds/trainer.kubeflow.org_*.yaml), JobSet v0.12.0
// (config/components/crd/bases/jobset.x-k8s.io_jobsets.yaml).
const std::map<std::string, KnownSchema>& known_schemas() {
  static const FieldTypes kubeflow_status = {{"completionTime", "string"},
                                             {"conditions", "array"},
                                             {"lastReconcileTime", "string"},
                                             {"replicaStatuses", "object"},
                                             {"startTime", "string"}};
  static const FieldTypes runtime_spec = {{"mlPolicy", "object"}, {"podGroupPolicy", "object"}, {"template", "object"}};
  static const std::map<std::string, KnownSchema> m = {
      {"trainjobs.trainer.kubeflow.org",
       {{{"activeDeadlineSeconds", "integer"},
         {"initializer", "object"},
         {"managedBy", "string"},
         {"runtimePatches", "array"},
         {"runtimeRef", "object"},
         {"suspend", "boolean"},
         {"trainer", "object"}},
        {{"conditions", "array"}, {"jobsStatus", "array"}, {"trainerStatus", "object"}}}},
      {"trainingruntimes.trainer.kubeflow.org", {runtime_spec, {}}},
      {"clustertrainingruntimes.trainer.kubeflow.org", {runtime_spec, {}}},
      {"jobsets.jobset.x-k8s.io",
       {{{"coordinator", "object"},
         {"failurePolicy", "object"},
         {"managedBy", "string"},
         {"network", "object"},
         {"replicatedJobs", "array"},
         {"startupPolicy", "object"},
         {"successPolicy", "object"},
         {"suspend", "boolean"},
         {"ttlSecondsAfterFinished", "integer"},
         {"volumeClaimPolicies", "array"}},
        {{"conditions", "array"},
         {"currentInPlaceRestartAttempt", "integer"},
         {"previousInPlaceRestartAttempt", "integer"},
         {"replicatedJobsStatus", "array"},
         {"restarts", "integer"},
         {"restartsCountTowardsMax", "integer"},
         {"terminalState", "string"}}}},
      {"pytorchjobs.kubeflow.org",
       {{{"elasticPolicy", "object"},
         {"nprocPerNode", "string"},
         {"pytorchReplicaSpecs", "object"},
         {"runPolicy", "object"}},
        kubeflow_status}},
      {"tfjobs.kubeflow.org",
       {{{"enableDynamicWorker", "boolean"},
         {"runPolicy", "object"},
         {"successPolicy", "string"},
         {"tfReplicaSpecs", "object"}},
        kubeflow_status}},
      {"mpijobs.kubeflow.org",
       {{{"launcherCreationPolicy", "string"},
         {"mpiImplementation", "string"},
         {"mpiReplicaSpecs", "object"},
         {"runLauncherAsWorker", "boolean"},
         {"runPolicy", "object"},
         {"slotsPerWorker", "integer"},
         {"sshAuthMountPath", "string"}},
        kubeflow_status}},
      {"jobs.batch.volcano.sh",
       {{{"maxRetry", "integer"},
         {"minAvailable", "integer"},
         {"minSuccess", "integer"},
         {"networkTopology", "object"},
         {"plugins", "object"},
         {"policies", "array"},
         {"priorityClassName", "string"},
         {"queue", "string"},
         {"runningEstimate", "string"},
         {"schedulerName", "string"},
         {"tasks", "array"},
         {"ttlSecondsAfterFinished", "integer"},
         {"volumes", "array"}},
        {{"conditions", "array"},
         {"controlledResources", "object"},
         {"failed", "integer"},
         {"minAvailable", "integer"},
         {"pending", "integer"},
         {"retryCount", "integer"},
         {"running", "integer"},
         {"runningDuration", "string"},
         {"state", "object"},
         {"succeeded", "integer"},
         {"taskStatusCount", "object"},
         {"terminating", "integer"},
         {"unknown", "integer"},
         {"version", "integer"}}}},
      {"podgroups.scheduling.volcano.sh",
       {{{"minMember", "integer"},
         {"minResources", "object"},
         {"minTaskMember", "object"},
         {"networkTopology", "object"},
         {"priorityClassName", "string"},
         {"queue", "string"},
         {"subGroupPolicy", "array"}},
        {{"conditions", "array"},
         {"failed", "integer"},
         {"phase", "string"},
         {"running", "integer"},
         {"succeeded", "integer"}}}},
      {"queues.scheduling.volcano.sh",
       {{{"affinity", "object"},
         {"capability", "object"},
         {"dequeueStrategy", "string"},
         {"deserved", "object"},
         {"extendClusters", "array"},
         {"guarantee", "object"},
         {"parent", "string"},
         {"priority", "integer"},
         {"reclaimable", "boolean"},
         {"type", "string"},
         {"weight", "integer"}},
        {{"allocated", "object"},
         {"completed", "integer"},
         {"inqueue", "integer"},
         {"pending", "integer"},
         {"reservation", "object"},
         {"running", "integer"},
         {"state", "string"},
         {"unknown", "integer"}}}},
  };
  return m;
}

json properties(const FieldTypes& fields) {
  json props = json::object();
  for (const auto& [name, type] : fields) {
    json p = {{"type", type}};
    if (std::string(type) == "object") p["x-kubernetes-preserve-unknown-fields"] = true;
    if (std::string(type) == "array") p["items"] = {{"x-kubernetes-preserve-unknown-fields", true}};
    props[name] = p;
  }
  return {{"type", "object"}, {"properties", props}};
}

}  // namespace

json builtin_crd_document(const ResourceType& rt) {
  json names = {
      {"kind", rt.kind}, {"listKind", rt.kind + "List"}, {"plural", rt.plural}, {"singular", rt.singular}};
  if (!rt.short_names.empty()) names["shortNames"] = rt.short_names;
  if (!rt.categories.empty()) names["categories"] = rt.categories;
  json schema = {{"type", "object"}, {"x-kubernetes-preserve-unknown-fields", true}};
  auto it = known_schemas().find(rt.crd_name());
  if (it != known_schemas().end()) {
    schema = {{"type", "object"},
              {"properties",
               {{"apiVersion", {{"type", "string"}}},
                {"kind", {{"type", "string"}}},
                {"metadata", {{"type", "object"}}},
                {"spec", properties(it->second.spec)}}}};
    if (!it->second.status.empty()) schema["properties"]["status"] = properties(it->second.status);
  }
  json version = {
      {"name", rt.version}, {"served", true}, {"storage", true}, {"schema", {{"openAPIV3Schema", schema}}}};
  if (rt.status_subresource) version["subresources"] = {{"status", json::object()}};
  return {{"apiVersion", "apiextensions.k8s.io/v1"},
          {"kind", "CustomResourceDefinition"},
          {"metadata", {{"name", rt.crd_name()}}},
          {"spec",
           {{"group", rt.group},
            {"names", names},
            {"scope", rt.namespaced ? "Namespaced" : "Cluster"},
            {"versions", json::array({version})}}}};
}

}  // namespace kubesim
