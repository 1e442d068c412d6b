// How top node prints nodes: Arena's summary table and per-node details, and the JSON of -o.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/iostreams.h"
#include "jobs/cluster/node_usage.h"
#include "metrics/gpu_history.h"
#include "metrics/gpu_metrics.h"
#include "metrics/idle.h"

namespace trainctl::print {

// The GPU metrics of the nodes (metrics/gpu_metrics.h); nullptr or nullopt: no metrics source.
using NodeGpus = std::optional<std::vector<metrics::GpuMetric>>;
// The idle rule the GPUs were marked with (GpuMetric::idle); nullopt: not asked.
using IdleRule = std::optional<metrics::IdleRule>;

// NAME IPADDRESS ROLE STATUS GPU(Total) GPU(Allocated) [GPU(Mode)] [UNHEALTHY] [GPU(Util)]
// [GPU(Usage)], then the cluster's allocated/total (and unhealthy/total) GPUs and, with
// metrics, the average utilisation of its GPUs. GPU(Mode) only when the nodes mix modes,
// UNHEALTHY only when a GPU is unhealthy, GPU(Util) (the node's average duty cycle) only with
// metrics, the usage bar only on a terminal. With metrics and an idle rule, GPU(Idle) counts
// each node's idle GPUs and a last line the cluster's idle/allocated GPUs.
std::string node_summary(const std::vector<jobs::NodeUsage>& nodes, const IOStreams& io, const NodeGpus& gpus = {},
                         const IdleRule& idle = {});
// -d: per node its address, role, instances, GPU summary and, with metrics, a GPUs table
// (INDEX DUTY_CYCLE MEMORY(Used/Total) in GiB, INSTANCE [IDLE]) and, with `history`, each
// GPU's utilisation sparkline (gpu_sparkline.h), then the cluster's totals.
std::string node_details(const std::vector<jobs::NodeUsage>& nodes, const IOStreams& io, const NodeGpus& gpus = {},
                         const IdleRule& idle = {}, const metrics::UtilizationHistory* history = nullptr);
// -o json|yaml: one object per node (NodeUsage::to_json) with "gpuMetrics": one entry per GPU
// (index, instance, namespace, gpuDutyCycle, usedGPUMemory, totalGPUMemory, maxGPUDutyCycle,
// idle) or null; with `history`, "gpuUtilizationHistory" of the node's GPUs (gpu_history_json).
nlohmann::ordered_json nodes_json(const std::vector<jobs::NodeUsage>& nodes, const NodeGpus& gpus = {},
                                  const metrics::UtilizationHistory* history = nullptr);

}  // namespace trainctl::print
