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
// (pkg/runtime/core/snapshot.go), so a runtime edited since shows its new GPUs. The live views
// (list -w, top job -r) read each runtime once for the view's life (LiveRuntimeGpus).
#pragma once

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <unordered_map>
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

// What a TrainJob's runtime GPUs depend on: the runtime and spec.trainer.numNodes.
struct RuntimeGpuSource {
  TrainJobRuntime runtime;
  std::optional<long long> num_nodes;
};

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
    RuntimeGpuSource source;
  };
  std::vector<Job> m_jobs;
};

// The same for a live view (list -w, top job -r): each runtime is read once for the view's
// life, when a job first names it, in one round per refresh for all the runtimes that refresh
// brought. Jobs are named by a key of the view's own.
class LiveRuntimeGpus {
 public:
  // The GPUs of `job`, of `kind`, from its runtime when that runtime was read already; nullopt
  // when they do not come from a runtime, or when it is still to be read (the job waits for
  // read() under `key`).
  std::optional<long long> gpus(const JobKind& kind, const std::string& key, const nlohmann::json& job);
  // The job is gone: it waits no more.
  void forget(const std::string& key) { m_waiting.erase(key); }
  bool waiting() const { return !m_waiting.empty(); }
  // GETs, in one round, the runtimes the waiting jobs name that were not read before, and
  // calls `set` with each waiting job's GPUs. A runtime the server answered for with an error
  // (gone, forbidden) is not asked for again and leaves its jobs unset; one that could not be
  // reached keeps its jobs waiting for the next read.
  void read(kube::Client& client, const std::function<void(const std::string& key, long long gpus)>& set);

 private:
  std::map<std::string, nlohmann::json> m_runtimes;  // by path; null: the server refused it
  std::unordered_map<std::string, RuntimeGpuSource> m_waiting;  // by the view's key
};

}  // namespace trainctl::jobs
