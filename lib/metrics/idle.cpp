#include "metrics/idle.h"

#include <algorithm>
#include <fmt/format.h>

#include "core/duration.h"

namespace trainctl::metrics {

void PodCreationIndex::add(const std::string& ns, const std::string& name, TimePoint created) {
  m_by_pod[{ns, name}] = created;
  m_by_name.try_emplace(name, created);
}

std::optional<TimePoint> PodCreationIndex::operator()(const std::string& ns, const std::string& name) const {
  if (ns.empty()) {
    auto it = m_by_name.find(name);
    return it == m_by_name.end() ? std::nullopt : std::optional(it->second);
  }
  auto it = m_by_pod.find({ns, name});
  return it == m_by_pod.end() ? std::nullopt : std::optional(it->second);
}

void mark_idle(std::vector<GpuMetric>& gpus, const PodCreated& created, TimePoint now, const IdleRule& rule) {
  for (auto& g : gpus) {
    g.idle.reset();
    if (g.pod.empty() || !g.max_utilization) continue;
    const auto made = created(g.ns, g.pod);
    if (!made) continue;
    const auto evaluated =
        g.sampled_at ? TimePoint(std::chrono::duration_cast<TimePoint::duration>(std::chrono::duration<double>(*g.sampled_at)))
                     : now;
    g.idle = evaluated - *made >= rule.window && *g.max_utilization < rule.threshold;
  }
}

PodIdleGpus idle_gpus_of(const std::vector<GpuMetric>& gpus, const std::string& ns, const std::string& pod) {
  PodIdleGpus out;
  for (const auto& g : gpus) {
    if (g.pod != pod || (!g.ns.empty() && g.ns != ns) || !g.idle) continue;
    ++out.held;
    if (!*g.idle) continue;
    ++out.idle;
    out.highest = std::max(out.highest.value_or(0.0), *g.max_utilization);
  }
  return out;
}

std::string describe(const IdleRule& rule) {
  return fmt::format("under {:g}% for the last {}", rule.threshold, short_human_duration(rule.window));
}

}  // namespace trainctl::metrics
