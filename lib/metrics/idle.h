// Allocated GPUs that sit idle: a GPU a pod holds whose highest utilisation over the last
// window stayed under a threshold, for a pod that has existed for the whole window (a job
// that just started is not idle yet). `top job`, `top node` mark them; `list --idle` finds
// the jobs holding them.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "metrics/gpu_metrics.h"

namespace trainctl::metrics {

struct IdleRule {
  std::chrono::seconds window{600};  // --idle-window, default 10m
  double threshold = 5.0;             // --idle-threshold, percent
};

using TimePoint = std::chrono::system_clock::time_point;
// When the pod `name` of namespace `ns` was created; nullopt when it is not known.
using PodCreated = std::function<std::optional<TimePoint>(const std::string& ns, const std::string& name)>;

// The creation times of the pods a command read, looked up as PodCreated: a series without a
// namespace label (Arena's exporter) names a pod of any namespace.
class PodCreationIndex {
 public:
  void add(const std::string& ns, const std::string& name, TimePoint created);
  std::optional<TimePoint> operator()(const std::string& ns, const std::string& name) const;

 private:
  std::map<std::pair<std::string, std::string>, TimePoint> m_by_pod;
  std::map<std::string, TimePoint> m_by_name;
};

// Sets GpuMetric::idle on every GPU a pod holds and whose max_utilization is known: true when
// that is under the threshold and the pod was created at least a window before the query was
// evaluated (the sample's time, Prometheus's clock, which the API server's agrees with better
// than the client's; `now` when a sample has none); false otherwise. GPUs of no pod, without
// a maximum, or of a pod whose creation is unknown stay nullopt.
void mark_idle(std::vector<GpuMetric>& gpus, const PodCreated& created, TimePoint now, const IdleRule& rule);

// Of the marked GPUs, those held by pod `pod` of namespace `ns` (an empty namespace label
// matches any), and how many of them are idle.
struct PodIdleGpus {
  int held = 0;
  int idle = 0;
  std::optional<double> highest;  // the highest utilisation of the idle ones over the window
};
PodIdleGpus idle_gpus_of(const std::vector<GpuMetric>& gpus, const std::string& ns, const std::string& pod);

// "under 5% for the last 10m": the rule in words, for footers.
std::string describe(const IdleRule& rule);

}  // namespace trainctl::metrics
