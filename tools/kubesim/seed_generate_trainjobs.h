// Kubeflow Trainer v2 TrainJobs in a generated cluster (--generate ...,trainjobs=N): each as
// the Trainer and JobSet leave it on torch-distributed (the runtime snapshot ConfigMap, the
// JobSet, its Job <tj>-node-0 and Service, the pods with JobSet's labels, hostnames and the
// torch env), finished (60 % Complete, 5 % Failed, with JobSet's reasons and messages) or
// running, so that a list over many TrainJobs reads what a real cluster holds.
#pragma once

#include <functional>
#include <random>
#include <string>
#include <vector>

#include "kubesim/seed.h"

namespace kubesim {

class Store;

// What generate_cluster has made that the TrainJobs use.
struct GeneratedCluster {
  const std::vector<std::string>& namespaces;
  const std::vector<std::pair<std::string, std::string>>& gpu_nodes;  // name, ip
  std::function<int()> take_gpu;  // a GPU slot of a node (its index in gpu_nodes), -1 when full
  std::mt19937_64& rng;
  std::time_t now;
};

// Adds options.trainjobs TrainJobs (and the torch-distributed runtime when absent) to stats.
void generate_trainjobs(Store& store, const GenerateOptions& options, GeneratedCluster& cluster, GenerateStats& stats);

}  // namespace kubesim
