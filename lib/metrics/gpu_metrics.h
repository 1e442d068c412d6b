// GPU utilisation and memory per GPU from the series of the two exporter families clusters
// run (docs/metrics.md): Alibaba's GPU exporter that Arena reads (nvidia_gpu_duty_cycle %,
// nvidia_gpu_memory_used_bytes, nvidia_gpu_memory_total_bytes; labels node_name, pod_name,
// namespace_name, minor_number, uuid) and NVIDIA's DCGM exporter (DCGM_FI_DEV_GPU_UTIL %,
// DCGM_FI_DEV_FB_USED / _FREE / _RESERVED MiB, DCGM_FI_PROF_GR_ENGINE_ACTIVE 0..1 on MIG
// instances; labels gpu, UUID, Hostname or hostname, GPU_I_ID, and the holding pod as
// exported_pod / pod_name / pod with their namespaces).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "metrics/prometheus_response.h"

namespace trainctl::metrics {

enum class Exporter { Arena, Dcgm, DcgmMig };

// One GPU (or MIG instance) as the series describe it.
struct GpuMetric {
  Exporter exporter = Exporter::Dcgm;
  std::string node;
  std::string gpu;          // device index: gpu or minor_number
  std::string uuid;
  std::string mig_instance;  // GPU_I_ID; empty for a whole GPU
  std::string ns, pod;       // the pod that holds it; empty when none does
  std::optional<double> utilization;   // percent, 0..100
  std::optional<double> memory_used;   // bytes
  std::optional<double> memory_total;  // bytes
  std::optional<double> sampled_at;    // unix seconds of the sample: Prometheus's clock
};

// The GPUs the series describe, one entry per (exporter, node, gpu, MIG instance, namespace,
// pod), in that order. Series of other metrics are ignored; so are NaN values.
std::vector<GpuMetric> gpu_metrics(const std::vector<Series>& series);

const char* exporter_name(Exporter e);  // "arena", "dcgm", "dcgm-mig"

// The one instant query for the GPUs held by `pods` of namespace ns (top job, get -g): every
// label variant of both families joined with `or`. Pod names are regex-escaped.
std::string job_gpu_query(const std::string& ns, const std::vector<std::string>& pods);
// The one instant query for the GPUs of `nodes` (all nodes when empty) (top node).
std::string node_gpu_query(const std::vector<std::string>& nodes);

// The highest utilisation of every GPU over the last `window_seconds`, in one instant query:
// each family's utilisation metric under max_over_time, renamed back to its metric name with
// label_replace (functions over a range drop __name__), so that gpu_metrics() reads the
// answer as utilisation. Arms for metrics a cluster does not have answer nothing.
std::string max_utilization_query(long long window_seconds);

// RE2 escaping of a literal for a label matcher =~ (PromQL regexes are RE2, fully anchored).
std::string regex_escape(const std::string& literal);

}  // namespace trainctl::metrics
