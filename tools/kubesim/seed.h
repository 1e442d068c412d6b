// Seeding kubesim: a YAML/JSON seed file loaded at start, and a generator that preloads a
// large cluster directly into the store (benchmarks: 5,000 nodes, 10,000 jobs, 150,000 pods).
//
// Seed file format (YAML or JSON):
//   nodes:
//     - name: cn-huhehaote.192.168.0.31
//       ip: 192.168.0.31            # status.addresses InternalIP
//       gpus: 2                     # nvidia.com/gpu capacity/allocatable
//       gpuResource: nvidia.com/gpu # optional (e.g. aliyun.com/gpu)
//       gpuMemory: 16Gi             # memory per GPU (label nvidia.com/gpu.memory in MiB, as
//                                   # GPU feature discovery); the GPU metrics assume 16Gi without
//       resources: {nvidia.com/mig-1g.10gb: 7, aliyun.com/gpu-mem: 64}  # other extended
//                                   # resources, capacity = allocatable (MIG mixed, ACK sharing)
//       cpu: "16"                   # optional, default "32"
//       memory: 64Gi                # optional, default "128Gi"
//       roles: [master]             # node-role.kubernetes.io/<role> labels
//       labels: {k: v}
//       taints: [{key: k, value: v, effect: NoSchedule}]
//       unschedulable: false
//       ready: true
//   namespaces: [team-a, team-b]
//   pvcs:
//     - {name: training-data, namespace: default, accessModes: [ReadWriteMany],
//        storage: 100Gi, description: "...", owner: "..."}
//   objects:                        # any manifests (also accepted as "jobs")
//     - {apiVersion: kubeflow.org/v1, kind: PyTorchJob, metadata: {...}, spec: {...}}
//   prometheus:                     # a simulated Prometheus with GPU metrics (gpu_series.h),
//     exporter: dcgm                # dcgm | dcgm-exported | dcgm-before-3.1.6 | arena   (default dcgm)
//     namespace: monitoring         # default monitoring (created if missing)
//     service: prometheus-server    # default; labels kubernetes.io/service-name=<service>,
//     port: 9090                    #   app.kubernetes.io/name=prometheus; port "http" 9090
//     endpoint: 127.0.0.1:9091      # a real Prometheus there instead (install_prometheus_endpoint)
//                                   # ("prometheus: true" takes every default)
// Command-line flags main.cpp should map: --seed FILE (load_seed_file),
//   --generate nodes=N,jobs=N,pods=N,gpus=N,objects=real|lean (parse_generate_options + generate_cluster), and
//   --prometheus EXPORTER (the prometheus key with its defaults).
#pragma once

#include <cstdint>
#include <ctime>
#include <optional>
#include <string>

#include "kubesim/prometheus_options.h"

namespace kubesim {

class Store;

struct SeedStats {
  size_t nodes = 0;
  size_t namespaces = 0;
  size_t pvcs = 0;
  size_t objects = 0;  // other manifests
  std::optional<PrometheusOptions> prometheus;  // the prometheus key (its Service is created)
};

// Loads a seed file into the store. Throws std::runtime_error on unreadable files and on
// objects of unknown kinds and on a bad prometheus key; StatusError from the store passes through.
SeedStats load_seed_file(Store& store, const std::string& path);

struct GenerateOptions {
  size_t nodes = 5000;
  size_t jobs = 10000;   // PyTorchJobs, MPIJobs and Volcano Jobs, mixed (5:3:2)
  bool pytorch_only = false;  // mix=pytorch: the jobs are all PyTorchJobs
  size_t trainjobs = 0;  // Kubeflow Trainer v2 TrainJobs on torch-distributed (seed_generate_trainjobs.h)
  size_t pods = 150000;  // spread over the jobs (at least one per job)
  int gpus_per_node = 8;
  size_t namespaces = 20;  // team-0 .. team-(N-1), plus "default"
  uint64_t random_seed = 42;
  // objects=real: every object as kube-apiserver returns it, managedFields, defaults, the
  // kubelet's full status (seed_real_size.h), several times the bytes; objects=lean (the
  // default): the fields kubesim and trainctl use.
  bool real_objects = false;
  // The time the generated objects are dated from; 0: the clock when generation starts.
  std::time_t now = 0;
};

// Parses "nodes=5000,jobs=10000,pods=150000,gpus=8,namespaces=20,trainjobs=10000,objects=real,
// mix=pytorch"
// (unknown keys throw std::invalid_argument).
GenerateOptions parse_generate_options(const std::string& text);

struct GenerateStats {
  size_t nodes = 0;
  size_t jobs = 0;
  size_t trainjobs = 0;
  size_t pods = 0;
};

// Builds nodes, namespaces, jobs (with finished/running statuses) and their pods (bound,
// with realistic labels, phases and GPU requests) directly into the store.
GenerateStats generate_cluster(Store& store, const GenerateOptions& options);

}  // namespace kubesim
