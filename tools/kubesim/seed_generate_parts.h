// The pieces generate_cluster (seed.h) builds a cluster from, each named for what it makes:
// nodes and namespaces (seed_generate_nodes.cpp), the training jobs of the three operators
// with their statuses and MPI launcher Jobs (seed_generate_jobs.cpp), and their pods
// (seed_generate_pods.cpp). With GenerateOptions::real_objects each object is then dressed as
// kube-apiserver returns it (seed_real_size.h).
#pragma once

#include <ctime>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "kubesim/seed.h"
#include "kubesim/store.h"

namespace kubesim {

// RFC 3339 in UTC, seconds.
std::string generated_time(std::time_t t);
// 10.BASE.x.y, the i-th address of a /16.
std::string generated_ip(size_t i, int base);

// GPU nodes, by name and InternalIP, in the order they were made.
using GpuNodes = std::vector<std::pair<std::string, std::string>>;

// o.nodes nodes: three masters without GPUs (when there are ten or more), the rest GPU workers.
GpuNodes generate_nodes(Store& store, const GenerateOptions& o, std::time_t now);
// team-0 .. team-(N-1) (or "default" when N is 0), created where absent.
std::vector<std::string> generate_namespaces(Store& store, const GenerateOptions& o);

// One training job as generated: its kind, place, size, outcome and times.
struct GeneratedJob {
  enum class Kind { PyTorch, MPI, Volcano };
  Kind kind = Kind::PyTorch;
  std::string ns, name;
  size_t pods = 1;
  std::string state;  // Succeeded, Failed or Running
  std::time_t created = 0, started = 0, finished = 0;
  std::string api_version() const;
  std::string kind_name() const;  // PyTorchJob, MPIJob, Job
  const ResourceType* resource(Store& store) const;
};

// A pod the job's operator makes: its name and labels.
struct PodRole {
  std::string name;
  json labels;
};

// The container of every replica of the job.
json job_container(const GeneratedJob& job);
// The job object (no status) and, in `roles`, the pods its operator makes for it.
json training_job(const GeneratedJob& job, const json& container, std::vector<PodRole>& roles, std::mt19937_64& rng);
// The status the job's operator leaves on it.
json training_job_status(const GeneratedJob& job);
// The batch/v1 Job mpi-operator v2 runs an MPIJob's launcher in, owned by the MPIJob.
json mpi_launcher_job(const GeneratedJob& job, const json& owner, const json& container);

// Where a pod runs.
struct PodPlace {
  std::string node, host_ip, pod_ip;
  bool gpu = false;  // holds a GPU slot: its container keeps the GPU limit
};
// A bound pod of the job, with the status its kubelet reports.
json training_pod(const GeneratedJob& job, const PodRole& role, const json& container, const json& owner,
                  const PodPlace& place);
// The same pod as kube-apiserver returns it (seed_real_size.h): its operator's env and field
// manager, the defaults and admission's additions, the kubelet's full status.
void dress_training_pod(json& pod, const GeneratedJob& job, const json& job_object, const PodRole& role);

}  // namespace kubesim
