// GPU metrics as Arena prints them (pkg/training/top_job.go displayWithMetric, docs/metrics.md):
// duty cycle "%.1f%", memory "%.1f/%.1f(MiB)", N/A for what is unknown; and as Arena's JSON
// gpuMetrics entry (bytes).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "metrics/gpu_metrics.h"
#include "metrics/idle.h"

namespace trainctl::print {

// The GPUs `pod` holds, ordered by device index (and MIG instance).
std::vector<const metrics::GpuMetric*> gpus_of(const std::vector<metrics::GpuMetric>& gpus, const std::string& pod);
// Orders GPUs by device index (2 before 10), then MIG instance.
void sort_by_device_index(std::vector<const metrics::GpuMetric*>& gpus);
// "3", or "0/mig-2" for MIG instance 2 of GPU 0.
std::string gpu_device_index(const metrics::GpuMetric& g);
std::string duty_cycle_text(const metrics::GpuMetric& g);
std::string gpu_memory_text(const metrics::GpuMetric& g);
// {"gpuDutyCycle": 87.0, "usedGPUMemory": bytes, "totalGPUMemory": bytes,
//  "maxGPUDutyCycle": highest over the idle window, "idle": bool}, null when unknown.
nlohmann::ordered_json gpu_metric_json(const metrics::GpuMetric& g);
// The GPU(Idle) cell: yes, no, or N/A when not judged (metrics/idle.h).
std::string idle_text(const metrics::GpuMetric& g);
// "Idle/Allocated GPUs: 1/4 (under 5% for the last 10m)\n" over the judged GPUs; "" when none is.
std::string idle_footer(const std::vector<const metrics::GpuMetric*>& gpus, const metrics::IdleRule& rule);

}  // namespace trainctl::print
