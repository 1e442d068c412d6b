// GPU metrics for the commands that show them: from the source Factory::metrics_source()
// finds, one instant query per command (docs/metrics.md). Without a source, or when the query
// fails or times out, the command goes on without them and stderr gets one line saying why.
// With an idle rule the same query reads each GPU's highest utilisation over the window, and
// the GPUs come back marked idle or not (metrics/idle.h); a range query draws each GPU's
// utilisation over the window (metrics/gpu_history.h).
#pragma once

#include <optional>
#include <vector>

#include "cmd/factory.h"
#include "jobs/cluster/node_usage.h"
#include "jobs/training_job.h"
#include "metrics/gpu_history.h"
#include "metrics/gpu_metrics.h"
#include "metrics/idle.h"

namespace trainctl {

// The GPUs held by the job's running instances; nullopt when metrics are unavailable.
std::optional<std::vector<metrics::GpuMetric>> job_gpu_metrics(Factory& f, const jobs::TrainingJob& job,
                                                               const std::optional<metrics::IdleRule>& idle = {});
// The GPUs of `nodes` (all nodes when empty); nullopt when metrics are unavailable. The pods of
// `usage` (read with their pods) tell which pod label names a GPU's holder (metrics/holders.h)
// and, with an idle rule, how old the holder is.
std::optional<std::vector<metrics::GpuMetric>> node_gpu_metrics(Factory& f, const std::vector<std::string>& nodes,
                                                                const std::vector<jobs::NodeUsage>& usage = {},
                                                                const std::optional<metrics::IdleRule>& idle = {});

// Each GPU's utilisation over the rule's window, from one range query (metrics/gpu_history.h):
// the job's running instances, or the GPUs of `nodes` (all when empty). nullopt without a
// source (the instant query already said why) or when the query fails (one line on stderr).
std::optional<metrics::UtilizationHistory> job_gpu_history(Factory& f, const jobs::TrainingJob& job,
                                                           const metrics::IdleRule& rule);
std::optional<metrics::UtilizationHistory> node_gpu_history(Factory& f, const std::vector<std::string>& nodes,
                                                            const std::vector<jobs::NodeUsage>& usage,
                                                            const metrics::IdleRule& rule);

}  // namespace trainctl
