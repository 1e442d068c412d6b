#include "metrics/idle_jobs.h"

#include <algorithm>

#include "metrics/gpu_queries.h"

namespace trainctl::metrics {

IdleJobs idle_jobs(std::vector<GpuMetric> max_util, const jobs::JobList& all, TimePoint now, const IdleRule& rule) {
  PodCreationIndex created;
  for (const auto& j : all)
    for (const auto& i : j.instances)
      if (i.created) created.add(j.namespace_, i.name, *i.created);
  mark_idle(max_util, created, now, rule);
  IdleJobs out;
  for (const auto& j : all) {
    if (j.status != jobs::JobStatus::Running) continue;
    PodIdleGpus sum;
    for (const auto& i : j.instances) {
      if (i.phase != "Running") continue;
      const auto p = idle_gpus_of(max_util, j.namespace_, i.name);
      sum.held += p.held;
      sum.idle += p.idle;
      if (p.highest) sum.highest = std::max(sum.highest.value_or(0.0), *p.highest);
    }
    if (sum.idle == 0) continue;
    out.jobs.push_back(j);
    out.idle.push_back(sum);
  }
  return out;
}

IdleJobs read_idle_jobs(const MetricsSource& source, const jobs::JobList& all, TimePoint now, const IdleRule& rule) {
  return idle_jobs(gpu_metrics(source.query(max_utilization_query(rule.window.count()))), all, now, rule);
}

}  // namespace trainctl::metrics
