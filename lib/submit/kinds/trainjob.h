// What only a TrainJob has (kinds/trainjob.cpp): its part of SubmitOptions (submit trainjob's
// flags; submit pytorch --api trainer leaves the defaults) and of the Plan (kind_part.h).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "submit/plan.h"

namespace trainctl::submit {

struct TrainJobOptions {
  std::string runtime;                                  // runtimeRef.name
  std::string runtime_kind = "ClusterTrainingRuntime";  // runtimeRef.kind
  std::string dataset_uri;                              // initializer.dataset.storageUri
  std::string model_uri;                                // initializer.model.storageUri
  std::vector<std::string> trainer_args;                // trainer.args
};

// runtimeRef, initializers and trainer.args (numProcPerNode is TorchrunPlan's: a number, or ""
// for the torch plugin's auto).
struct TrainJobPlan {
  std::string runtime_name;
  std::string runtime_kind;
  std::string dataset_uri;
  std::string model_uri;
  std::vector<std::string> trainer_args;
  std::vector<KeyValue> pod_annotations;  // --annotation only (the job also has Arena's own)
  // The runtime's replicated jobs with a container "node": where runtimePatches go.
  std::vector<std::string> runtime_node_jobs = {"node"};
  // With --sync-mode: the runtime as the cluster has it, which the job's own TrainingRuntime
  // copies with the code-sync init container added (trainjob_code_sync.cpp).
  nlohmann::json sync_runtime_source;
};

}  // namespace trainctl::submit
