// GPU metrics for the commands that show them: from the source Factory::metrics_source()
// finds, one instant query per command (docs/metrics.md). Without a source, or when the query
// fails or times out, the command goes on without them and stderr gets one line saying why.
#pragma once

#include <optional>
#include <vector>

#include "cmd/factory.h"
#include "jobs/training_job.h"
#include "metrics/gpu_metrics.h"

namespace trainctl {

// The GPUs held by the job's running instances; nullopt when metrics are unavailable.
std::optional<std::vector<metrics::GpuMetric>> job_gpu_metrics(Factory& f, const jobs::TrainingJob& job);
// The GPUs of `nodes` (all nodes when empty); nullopt when metrics are unavailable.
std::optional<std::vector<metrics::GpuMetric>> node_gpu_metrics(Factory& f, const std::vector<std::string>& nodes);

}  // namespace trainctl
