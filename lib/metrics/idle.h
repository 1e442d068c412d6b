// Allocated GPUs that sit idle: a GPU a pod holds whose highest utilisation over the last
// window stayed under a threshold, for a pod that has existed for the whole window (a job
// that just started is not idle yet). The waste `list --idle` finds.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "metrics/gpu_metrics.h"

namespace trainctl::metrics {

struct IdleRule {
  std::chrono::seconds window{600};  // --idle-window, default 10m
  double threshold = 5.0;             // --idle-threshold, percent
};

// Of the GPUs `max_util` reports (gpu_metrics() of max_utilization_query()), those held by
// pod `pod` of namespace `ns` (an empty namespace label matches any), and how many of them are
// idle: utilisation under the threshold, with the pod created at least a window before the
// query was evaluated (the sample's time, Prometheus's clock, which the API server's agrees
// with better than the client's; `now` when a sample has none).
struct PodIdleGpus {
  int held = 0;
  int idle = 0;
  std::optional<double> highest;  // the highest utilisation of the idle ones over the window
};
PodIdleGpus idle_gpus_of(const std::vector<GpuMetric>& max_util, const std::string& ns, const std::string& pod,
                         std::chrono::system_clock::time_point pod_created, std::chrono::system_clock::time_point now,
                         const IdleRule& rule);

}  // namespace trainctl::metrics
