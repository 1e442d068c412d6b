#include "jobs/trainjob_runtime_gpus.h"

#include <algorithm>
#include <map>

#include "core/errors.h"
#include "core/text.h"
#include "jobs/gpu.h"
#include "jobs/json_util.h"
#include "kube/resource.h"

namespace trainctl::jobs {

using nlohmann::json;

namespace {

constexpr const char* kTrainerGroup = "trainer.kubeflow.org";

// Whether resourcesPerNode names a GPU resource: Trainer's own test, a resource name that
// contains "gpu" (pkg/runtime/runtime.go GetNumGPUPerNode). Merged key by key, such a
// resource replaces the runtime's; any other leaves the runtime's GPUs as they are.
bool names_gpu(const json& resources) {
  for (const char* part : {"limits", "requests"}) {
    const json& m = at(resources, part);
    if (!m.is_object()) continue;
    for (auto it = m.begin(); it != m.end(); ++it)
      if (ascii_lower(it.key()).find("gpu") != std::string::npos) return true;
  }
  return false;
}

long long pods_of(const json& rjob, const json& ml_policy, std::optional<long long> num_nodes) {
  const json& tmpl = at(rjob, "template");
  const bool trainer = str(at(at(tmpl, "metadata"), "labels"), "trainer.kubeflow.org/trainjob-ancestor-step") == "trainer";
  const json& parallelism = at(at(tmpl, "spec"), "parallelism");
  long long count = parallelism.is_number_integer() ? parallelism.get<long long>() : 1;
  if (trainer && ml_policy.is_object()) {
    const json& n = at(ml_policy, "numNodes");
    count = n.is_number_integer() ? n.get<long long>() : 1;
  }
  if (!num_nodes) return std::max(count, 1LL);
  const json& mpi = at(ml_policy, "mpi");
  if (mpi.is_object()) {  // mpi.go EnforceMLPolicy: the job named node
    if (str(rjob, "name") != "node") return std::max(count, 1LL);
    const json& as_node = at(mpi, "runLauncherAsNode");
    return as_node.is_boolean() && as_node.get<bool>() ? std::max(*num_nodes - 1, 1LL) : *num_nodes;
  }
  return trainer ? *num_nodes : std::max(count, 1LL);  // torch.go, plainml.go
}

long long gpus_on(const json& runtime, std::optional<long long> num_nodes) {
  const json& spec = at(runtime, "spec");
  const json& ml_policy = at(spec, "mlPolicy");
  long long total = 0;
  for (const auto& rjob : at_path(spec, {"template", "spec", "replicatedJobs"}))
    total += spec_gpus(at_path(rjob, {"template", "spec", "template", "spec"})) * pods_of(rjob, ml_policy, num_nodes);
  return total;
}

std::optional<long long> num_nodes_of(const json& trainjob_spec) {
  const json& n = at(at(trainjob_spec, "trainer"), "numNodes");
  if (!n.is_number_integer()) return std::nullopt;
  return n.get<long long>();
}

kube::Resource runtime_resource(const TrainJobRuntime& r) {
  if (r.kind == "TrainingRuntime") return {kTrainerGroup, "v1alpha1", "trainingruntimes", "TrainingRuntime", true};
  return {kTrainerGroup, "v1alpha1", "clustertrainingruntimes", "ClusterTrainingRuntime", false};
}

std::string runtime_path(const TrainJobRuntime& r) { return runtime_resource(r).object_path(r.namespace_, r.name); }

std::optional<RuntimeGpuSource> source_of(const JobKind& kind, const json& job) {
  if (!kind.gpus_from_runtime) return std::nullopt;
  auto runtime = gpu_runtime_of(job);
  if (!runtime) return std::nullopt;
  return RuntimeGpuSource{std::move(*runtime), num_nodes_of(at(job, "spec"))};
}

// What one round of GETs of runtimes answered.
struct RuntimeRead {
  json object;           // the runtime; null when there is none
  bool answered = true;  // false: the server was not reached (a transport error)
};

std::vector<RuntimeRead> read_runtimes(kube::Client& client, const std::vector<std::string>& paths) {
  std::vector<kube::Request> requests(paths.size());
  for (size_t i = 0; i < paths.size(); ++i) requests[i].path = paths[i];
  const auto results = client.send_all(requests);
  std::vector<RuntimeRead> out(results.size());
  for (size_t i = 0; i < results.size(); ++i) {
    if (!results[i].error) {
      out[i].object = json::parse(results[i].response.body, nullptr, false);
      if (!out[i].object.is_object()) out[i].object = json();
      continue;
    }
    try {
      std::rethrow_exception(results[i].error);
    } catch (const ApiError&) {
    } catch (const std::exception&) {
      out[i].answered = false;
    }
  }
  return out;
}

}  // namespace

std::optional<TrainJobRuntime> gpu_runtime_of(const json& trainjob) {
  const json& spec = at(trainjob, "spec");
  if (names_gpu(at(at(spec, "trainer"), "resourcesPerNode"))) return std::nullopt;
  const json& ref = at(spec, "runtimeRef");
  // The CRD's defaults: apiGroup trainer.kubeflow.org, kind ClusterTrainingRuntime.
  const std::string group = str(ref, "apiGroup").empty() ? kTrainerGroup : str(ref, "apiGroup");
  const std::string kind = str(ref, "kind").empty() ? "ClusterTrainingRuntime" : str(ref, "kind");
  if (group != kTrainerGroup || (kind != "ClusterTrainingRuntime" && kind != "TrainingRuntime") ||
      str(ref, "name").empty())
    return std::nullopt;
  return TrainJobRuntime{kind, kind == "TrainingRuntime" ? str(at(trainjob, "metadata"), "namespace") : "",
                         str(ref, "name")};
}

long long runtime_requested_gpus(const json& trainjob_spec, const json& runtime) {
  return gpus_on(runtime, num_nodes_of(trainjob_spec));
}

void RuntimeGpus::note(const JobKind& kind, size_t kind_index, const json& job) {
  auto source = source_of(kind, job);
  if (!source) return;
  const json& meta = at(job, "metadata");
  m_jobs.push_back({kind_index, str(meta, "namespace"), str(meta, "name"), std::move(*source)});
}

void RuntimeGpus::resolve(kube::Client& client, const Wanted& wanted, const Set& set) const {
  std::map<std::string, size_t> index;  // runtime path -> request
  std::vector<std::string> paths;
  std::vector<std::pair<const Job*, size_t>> jobs;
  for (const auto& j : m_jobs) {
    if (!wanted(j.kind, j.namespace_, j.name)) continue;
    auto [it, added] = index.emplace(runtime_path(j.source.runtime), paths.size());
    if (added) paths.push_back(it->first);
    jobs.emplace_back(&j, it->second);
  }
  if (paths.empty()) return;
  const auto runtimes = read_runtimes(client, paths);
  for (const auto& [job, i] : jobs) {
    if (!runtimes[i].object.is_object()) continue;
    set(job->kind, job->namespace_, job->name, gpus_on(runtimes[i].object, job->source.num_nodes));
  }
}

std::optional<long long> LiveRuntimeGpus::gpus(const JobKind& kind, const std::string& key, const json& job) {
  auto source = source_of(kind, job);
  if (!source) {
    m_waiting.erase(key);
    return std::nullopt;
  }
  auto it = m_runtimes.find(runtime_path(source->runtime));
  if (it == m_runtimes.end()) {
    m_waiting.insert_or_assign(key, std::move(*source));
    return std::nullopt;
  }
  m_waiting.erase(key);
  if (!it->second.is_object()) return std::nullopt;
  return gpus_on(it->second, source->num_nodes);
}

void LiveRuntimeGpus::read(kube::Client& client, const std::function<void(const std::string&, long long)>& set) {
  std::vector<std::string> paths;
  for (const auto& [key, source] : m_waiting) {
    std::string path = runtime_path(source.runtime);
    if (!m_runtimes.count(path) && std::find(paths.begin(), paths.end(), path) == paths.end())
      paths.push_back(std::move(path));
  }
  if (!paths.empty()) {
    const auto read = read_runtimes(client, paths);
    for (size_t i = 0; i < paths.size(); ++i)
      if (read[i].answered) m_runtimes.emplace(paths[i], read[i].object);
  }
  for (auto it = m_waiting.begin(); it != m_waiting.end();) {
    auto runtime = m_runtimes.find(runtime_path(it->second.runtime));
    if (runtime == m_runtimes.end()) {  // not reached: asked for again at the next read
      ++it;
      continue;
    }
    if (runtime->second.is_object()) set(it->first, gpus_on(runtime->second, it->second.num_nodes));
    it = m_waiting.erase(it);
  }
}

}  // namespace trainctl::jobs
