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
  std::string instance;      // DCGM: the scrape target's address (instance label), host:port
  std::optional<double> utilization;   // percent, 0..100
  std::optional<double> memory_used;   // bytes
  std::optional<double> memory_total;  // bytes
  std::optional<double> sampled_at;    // unix seconds of the sample: Prometheus's clock
  // The highest utilisation over the idle window (percent), when the query asked for it
  // (gpu_queries.h), and whether the GPU counts as idle (mark_idle() in idle.h).
  std::optional<double> max_utilization;
  std::optional<bool> idle;
};

// The label the queries put on the series of each GPU's highest utilisation over the idle
// window, to tell them from the instant series of the same GPU (gpu_queries.h).
inline constexpr const char* kWindowMaxLabel = "trainctl_max_over";

// The GPUs the series describe, one entry per (exporter, node, gpu, MIG instance, namespace,
// pod), in that order. Series of other metrics are ignored; so are NaN values. A series with
// the kWindowMaxLabel sets max_utilization, the others the current values; an entry with window
// series only is left out where the same device reports now under other pod labels (stale).
std::vector<GpuMetric> gpu_metrics(const std::vector<Series>& series);

const char* exporter_name(Exporter e);  // "arena", "dcgm", "dcgm-mig"

}  // namespace trainctl::metrics
