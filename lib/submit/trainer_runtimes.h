// Kubeflow Trainer v2's runtimes as trainctl reads them: the TrainJob resource, the
// ClusterTrainingRuntimes and the namespace's TrainingRuntimes (kubeflow/trainer@v2.3.0
// pkg/apis/trainer/v1alpha1/trainingruntime_types.go), for `submit trainjob` (is the runtime
// there, which replicated jobs run container "node") and `runtime list`.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kube/client.h"
#include "kube/resource.h"
#include "render/templates.h"
#include "submit/plan.h"

namespace trainctl::submit {

// The runtime `submit pytorch` uses on a Trainer-only cluster (manifests/base/runtimes).
inline constexpr const char* kTorchDistributed = "torch-distributed";
// On a job's own TrainingRuntime (--sync-mode, trainjob_code_sync.cpp): KIND/NAME of the
// runtime it copies. An annotation: a label value cannot hold the '/'.
inline constexpr const char* kCopyOfAnnotation = "trainctl.io/copy-of";

const kube::Resource& trainjob_resource();             // trainjobs (namespaced)
const kube::Resource& training_runtime_resource();     // trainingruntimes (namespaced)
const kube::Resource& cluster_training_runtime_resource();  // clustertrainingruntimes

struct TrainingRuntime {
  std::string name;
  std::string kind;  // ClusterTrainingRuntime | TrainingRuntime
  std::string namespace_;  // "" for a ClusterTrainingRuntime
  std::string framework;   // label trainer.kubeflow.org/framework
  long long num_nodes = 1; // spec.mlPolicy.numNodes (CRD default 1)
  std::string image;       // container "node" of the trainer step (or of the first rJob with one)
  bool deprecated = false; // label trainer.kubeflow.org/support: deprecated
  // The replicated jobs that run a container named "node" (runtimePatches go to them).
  std::vector<std::string> node_jobs;
  std::vector<std::string> jobs;  // every replicated job, in the runtime's order
  // A runtime of one job, no runtime to pick: the annotation kCopyOfAnnotation (KIND/NAME
  // copied), and the TrainJob among its ownerReferences (the garbage collector deletes it
  // with that job); "" when none.
  std::string copy_of;
  std::string owner_job;
  bool of_one_job() const { return !copy_of.empty() || !owner_job.empty(); }
  nlohmann::json object;
};

TrainingRuntime runtime_of(const nlohmann::json& object);

// ClusterTrainingRuntimes, then the TrainingRuntimes of `namespace_`, each sorted by name;
// the runtimes of one job (of_one_job) only `with_job_copies`. A resource the cluster does
// not serve (404) gives none; other errors are thrown.
std::vector<TrainingRuntime> list_runtimes(kube::Client& client, const std::string& namespace_,
                                           bool with_job_copies = false);

// The plan's runtime as the cluster has it. Throws UsageError with one line naming the
// runtimes the cluster has when it is missing, before anything is created.
TrainingRuntime find_runtime(kube::Client& client, const Plan& plan);

// Whether the plan sets anything on the pods (runtimePatches).
bool needs_runtime_patch(const Plan& plan);

// --sync-mode on a TrainJob (trainjob_code_sync.cpp): the job runs on its own TrainingRuntime
// NAME-code-sync, a copy of TrainJobPlan::sync_runtime_source (check_cluster reads it) with the
// code-sync init container, its emptyDir and the mount of container "node" added.
bool uses_code_sync_runtime(const Plan& plan);
std::string code_sync_runtime_name(const Plan& plan);
nlohmann::json render_code_sync_runtime(const Plan& plan, const render::TemplateSet& templates);

// The TrainJob of the plan (templates/trainjob/job.yaml).
nlohmann::json render_trainjob(const Plan& plan, const render::TemplateSet& templates);

}  // namespace trainctl::submit
