// Each GPU's utilisation over a window, from one range query (query_range) of the utilisation
// series (gpu_queries.h job_utilization_query, node_utilization_query): one column per step,
// with its minimum, mean and maximum, and how long it has stayed under the idle threshold.
// What `top job NAME`, `get -g` and `top node -d` draw as sparklines (print/gpu_sparkline.h).
#pragma once

#include <chrono>
#include <optional>
#include <vector>

#include "metrics/gpu_metrics.h"
#include "metrics/prometheus_response.h"

namespace trainctl::metrics {

// The range asked for: start and end (whole seconds) and the step between columns.
struct HistoryWindow {
  std::chrono::system_clock::time_point start, end;
  std::chrono::seconds step{1};
  size_t columns() const;  // (end - start) / step + 1
};

// `window` back from `now`, in about `columns` steps of whole seconds (at least 1 s), end on
// `now` truncated to whole seconds.
HistoryWindow history_window(std::chrono::system_clock::time_point now, std::chrono::seconds window, int columns = 30);

struct GpuHistory {
  GpuMetric gpu;  // which GPU (exporter, node, gpu, MIG instance, namespace, pod); utilization = the last sample
  std::vector<std::optional<double>> columns;  // percent at start + i*step; nullopt where no sample was
  std::optional<double> min, mean, max;        // over the samples; nullopt when there is none
  // When the trailing samples under the threshold began (the first of them), if the last sample
  // is under it; `since_window_start` when that run begins at the window's first column (it may
  // have begun before).
  std::optional<std::chrono::system_clock::time_point> under_since;
  bool since_window_start = false;
};

struct UtilizationHistory {
  HistoryWindow window;
  double threshold = 5.0;  // percent, the idle threshold the "under since" is about
  std::vector<GpuHistory> gpus;
};

// The GPUs of a range query's series, in gpu_metrics() order. Each column is what
// gpu_metrics() reads from the samples at that step (GPU_UTIL before GR_ENGINE_ACTIVE x 100
// on a whole GPU, Arena's duty cycle); samples off the step grid are put in the nearest column.
UtilizationHistory gpu_history(const std::vector<Series>& series, const HistoryWindow& window, double threshold);

}  // namespace trainctl::metrics
