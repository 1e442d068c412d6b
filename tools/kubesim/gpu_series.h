// The series kubesim's simulated GPU exporters would have scraped into Prometheus: one per
// metric and GPU of every node with GPUs, sampled every 15 s (docs/kubesim.md, "GPU metrics
// (Prometheus)"). The GPUs of a node go to its non-terminal pods in creation order
// (consecutive indexes); a Running pod's GPUs carry its labels and report from the time its
// containers started, by the pod's kubesim.trainctl.io/gpu-profile and gpu-memory annotations.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kubesim/promql.h"

namespace kubesim {

class Store;

inline constexpr int64_t kScrapeIntervalMs = 15'000;
inline constexpr int64_t kDefaultGpuMemoryMiB = 16 * 1024;
inline constexpr const char* kDefaultGpuModel = "NVIDIA A100-SXM4-40GB";

// The name of the node's dcgm-exporter pod (gpu-operator's DaemonSet): nvidia-dcgm-exporter-
// and five characters of the generateName alphabet, from the node's name.
std::string exporter_pod(const std::string& node);

// Every series of the exporter family (dcgm, dcgm-exported or arena) with its samples in
// [from_ms, min(to_ms, now_ms)].
std::vector<promql::Series> gpu_series(const Store& store, const std::string& exporter, int64_t from_ms,
                                       int64_t to_ms, int64_t now_ms);

// The utilisation (%) a pod's GPU reports at t_ms under profile ("idle", "busy" or "" for
// busy, or a number 0-100): busy is 70-99, fixed per pod, GPU and minute.
double gpu_utilisation(const std::string& profile, const std::string& pod_key, int gpu, int64_t t_ms);

}  // namespace kubesim
