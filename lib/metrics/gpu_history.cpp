// Utilisation over a window (gpu_history.h).
#include "metrics/gpu_history.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace trainctl::metrics {

namespace {

using Key = std::tuple<int, std::string, std::string, std::string, std::string, std::string>;

Key key_of(const GpuMetric& g) { return {static_cast<int>(g.exporter), g.node, g.gpu, g.mig_instance, g.ns, g.pod}; }

double unix_seconds(std::chrono::system_clock::time_point t) {
  return static_cast<double>(std::chrono::duration_cast<std::chrono::seconds>(t.time_since_epoch()).count());
}

void summarise(GpuHistory& h, const HistoryWindow& w, double threshold) {
  constexpr size_t kNone = static_cast<size_t>(-1);
  double sum = 0;
  size_t n = 0;
  size_t run_start = kNone;  // the first column of the trailing run under the threshold
  for (size_t i = 0; i < h.columns.size(); ++i) {
    const auto& v = h.columns[i];
    if (!v) continue;
    h.min = h.min ? std::min(*h.min, *v) : *v;
    h.max = h.max ? std::max(*h.max, *v) : *v;
    sum += *v;
    ++n;
    if (*v >= threshold) run_start = kNone;
    else if (run_start == kNone) run_start = i;
  }
  if (n) h.mean = sum / static_cast<double>(n);
  if (run_start != kNone) {
    h.under_since = w.start + w.step * static_cast<long long>(run_start);
    h.since_window_start = run_start == 0;
  }
}

}  // namespace

size_t HistoryWindow::columns() const {
  const auto span = std::chrono::duration_cast<std::chrono::seconds>(end - start);
  return step.count() > 0 && span.count() >= 0 ? static_cast<size_t>(span / step) + 1 : 0;
}

HistoryWindow history_window(std::chrono::system_clock::time_point now, std::chrono::seconds window, int columns) {
  HistoryWindow w;
  w.step = std::chrono::seconds(std::max<long long>(1, window.count() / std::max(columns, 1)));
  w.end = std::chrono::floor<std::chrono::seconds>(now);
  w.start = w.end - w.step * (window.count() / w.step.count());
  return w;
}

UtilizationHistory gpu_history(const std::vector<Series>& series, const HistoryWindow& window, double threshold) {
  UtilizationHistory out;
  out.window = window;
  out.threshold = threshold;
  const size_t cols = window.columns();
  const double start = unix_seconds(window.start), step = static_cast<double>(window.step.count());
  // The samples of each column as one-point series, read as gpu_metrics() reads an instant answer.
  std::vector<std::vector<Series>> at(cols);
  for (const auto& s : series) {
    for (const auto& [t, v] : s.points) {
      const double i = std::round((t - start) / step);
      if (i < 0 || i >= static_cast<double>(cols)) continue;
      Series one;
      one.labels = s.labels;
      one.points = {{t, v}};
      at[static_cast<size_t>(i)].push_back(std::move(one));
    }
  }
  std::map<Key, GpuHistory> by_gpu;
  for (size_t i = 0; i < cols; ++i) {
    for (auto& g : gpu_metrics(at[i])) {
      if (!g.utilization) continue;
      auto [it, fresh] = by_gpu.try_emplace(key_of(g));
      GpuHistory& h = it->second;
      if (fresh) h.columns.resize(cols);
      h.columns[i] = g.utilization;
      h.gpu = g;
    }
  }
  for (auto& [key, h] : by_gpu) {
    summarise(h, window, threshold);
    out.gpus.push_back(std::move(h));
  }
  return out;
}

}  // namespace trainctl::metrics
