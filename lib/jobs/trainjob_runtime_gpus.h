// The GPUs a TrainJob asks for through its runtime. A TrainJob whose trainer.resourcesPerNode
// names no GPU runs with the GPUs of its runtime's node container: Trainer merges
// resourcesPerNode into that container's resources key by key (kubeflow/trainer@v2.3.0
// pkg/runtime/core/trainingruntime.go newRuntimeInfo, pkg/util/trainingruntime
// MergeResourceRequirements), and its pod counts come from trainer.numNodes, else the
// runtime's mlPolicy.numNodes (torch.go and plainml.go EnforceMLPolicy on the trainer-ancestor
// job; mpi.go on the job named node, one fewer with runLauncherAsNode). Before a job has pods
// (queued, suspended) list, get and top job show these GPUs; reading them costs one GET per
// runtime named, in one round after the jobs are read, and only when such a job has no pods.
// The runtime is read as it is now: Trainer keeps its own snapshot of it per job
// (pkg/runtime/core/snapshot.go), so a runtime edited since shows its new GPUs.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "jobs/kind.h"
#include "kube/client.h"

namespace trainctl::jobs {

// The runtime a TrainJob's GPUs come from: ClusterTrainingRuntime (namespace "") or
// TrainingRuntime of the job's namespace; none when resourcesPerNode names a GPU itself.
struct TrainJobRuntime {
  std::string kind, namespace_, name;
};
std::optional<TrainJobRuntime> gpu_runtime_of(const nlohmann::json& trainjob);

// GPUs of the TrainJob's pods on `runtime` (a TrainingRuntime or ClusterTrainingRuntime
// object), when its resourcesPerNode names no GPU.
long long runtime_requested_gpus(const nlohmann::json& trainjob_spec, const nlohmann::json& runtime);

// The TrainJobs of a read whose GPUs come from their runtime, and the one round that reads
// those runtimes.
class RuntimeGpus {
 public:
  // Notes the job if it is a TrainJob that takes its GPUs from its runtime; `kind_index`
  // is handed back to resolve's callback.
  void note(const JobKind& kind, size_t kind_index, const nlohmann::json& job);
  void clear() { m_jobs.clear(); }
  bool empty() const { return m_jobs.empty(); }
  // For the noted jobs `wanted` accepts (kind index, namespace, name): GETs each runtime they
  // name once, all in one round, and calls `set` with each job's GPUs. A runtime that is gone
  // or cannot be read leaves its jobs unset.
  using Wanted = std::function<bool(size_t, const std::string&, const std::string&)>;
  using Set = std::function<void(size_t, const std::string&, const std::string&, long long)>;
  void resolve(kube::Client& client, const Wanted& wanted, const Set& set) const;

 private:
  struct Job {
    size_t kind;
    std::string namespace_, name;
    TrainJobRuntime runtime;
    std::optional<long long> num_nodes;  // spec.trainer.numNodes
  };
  std::vector<Job> m_jobs;
};

}  // namespace trainctl::jobs
