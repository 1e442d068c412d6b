// list --idle: the running jobs holding GPUs that sat idle (idle.h) for the whole window.
#pragma once

#include <vector>

#include "jobs/training_job.h"
#include "metrics/idle.h"
#include "metrics/source.h"

namespace trainctl::metrics {

struct IdleJobs {
  jobs::JobList jobs;             // of the jobs given, the running ones holding idle GPUs
  std::vector<PodIdleGpus> idle;  // for each of them, the GPUs of its running instances
};

// From `max_util`, each GPU's highest utilisation over the window (max_utilization_query,
// gpu_queries.h): the GPUs are marked idle by the creation times of the instances of `all`,
// then summed per running job over its running instances; a job with no idle GPU is left out.
IdleJobs idle_jobs(std::vector<GpuMetric> max_util, const jobs::JobList& all, TimePoint now, const IdleRule& rule);

// The same from one instant query of `source`; throws PrometheusError when it fails.
IdleJobs read_idle_jobs(const MetricsSource& source, const jobs::JobList& all, TimePoint now, const IdleRule& rule);

}  // namespace trainctl::metrics
