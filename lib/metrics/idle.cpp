#include "metrics/idle.h"

#include <algorithm>

namespace trainctl::metrics {

PodIdleGpus idle_gpus_of(const std::vector<GpuMetric>& max_util, const std::string& ns, const std::string& pod,
                         std::chrono::system_clock::time_point pod_created, std::chrono::system_clock::time_point now,
                         const IdleRule& rule) {
  PodIdleGpus out;
  for (const auto& g : max_util) {
    if (g.pod != pod || (!g.ns.empty() && g.ns != ns) || !g.utilization) continue;
    ++out.held;
    const auto evaluated =
        g.sampled_at ? std::chrono::system_clock::time_point(std::chrono::duration_cast<std::chrono::system_clock::duration>(
                           std::chrono::duration<double>(*g.sampled_at)))
                     : now;
    const bool old_enough = evaluated - pod_created >= rule.window;
    if (!old_enough || *g.utilization >= rule.threshold) continue;
    ++out.idle;
    out.highest = std::max(out.highest.value_or(0.0), *g.utilization);
  }
  return out;
}

}  // namespace trainctl::metrics
