// GPU metrics for the commands that show them: from the source Factory::metrics_source()
// finds, one instant query per command (docs/metrics.md). Without a source, or when the query
// fails or times out, the command goes on without them and stderr gets one line saying why.
// With an idle rule the same query reads each GPU's highest utilisation over the window, and
// the GPUs come back marked idle or not (metrics/idle.h).
#pragma once

#include <optional>
#include <vector>

#include "cmd/factory.h"
#include "jobs/node_usage.h"
#include "jobs/training_job.h"
#include "metrics/gpu_metrics.h"
#include "metrics/idle.h"

namespace trainctl {

// The GPUs held by the job's running instances; nullopt when metrics are unavailable.
std::optional<std::vector<metrics::GpuMetric>> job_gpu_metrics(Factory& f, const jobs::TrainingJob& job,
                                                               const std::optional<metrics::IdleRule>& idle = {});
// The GPUs of `nodes` (all nodes when empty); nullopt when metrics are unavailable. With an
// idle rule, the pods of `usage` (read with their pods) tell how old each GPU's holder is.
std::optional<std::vector<metrics::GpuMetric>> node_gpu_metrics(Factory& f, const std::vector<std::string>& nodes,
                                                                const std::vector<jobs::NodeUsage>& usage = {},
                                                                const std::optional<metrics::IdleRule>& idle = {});

}  // namespace trainctl
