#include "print/gpu_sparkline.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <sstream>

#include "core/duration.h"
#include "core/rfc3339.h"
#include "print/gpu_metric_text.h"
#include "print/table.h"

namespace trainctl::print {

namespace {

constexpr const char* kBlocks[] = {"\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587", "\u2588"};
constexpr const char kAscii[] = "_.-:=+*#";

std::string percent(const std::optional<double>& v) { return v ? fmt::format("{:.1f}%", *v) : "N/A"; }

}  // namespace

std::string sparkline(const std::vector<std::optional<double>>& columns, bool unicode) {
  std::string out;
  for (const auto& v : columns) {
    if (!v || std::isnan(*v)) {
      out += ' ';
      continue;
    }
    // 0-100 % in 8 levels: [0, 12.5) is the lowest, [87.5, 100] the highest.
    const int level = std::clamp(static_cast<int>(std::floor(std::clamp(*v, 0.0, 100.0) / 12.5)), 0, 7);
    if (unicode) out += kBlocks[level];
    else out += kAscii[level];
  }
  return out;
}

std::string under_threshold_text(const metrics::GpuHistory& g, const metrics::HistoryWindow& w) {
  if (!g.max) return "N/A";
  if (!g.under_since) return "-";
  const auto d = std::chrono::duration_cast<std::chrono::seconds>(w.end - *g.under_since);
  return short_human_duration(d) + (g.since_window_start ? "+" : "");
}

std::vector<const metrics::GpuHistory*> histories_of(const metrics::UtilizationHistory& h, const std::string& node) {
  std::vector<const metrics::GpuHistory*> out;
  for (const auto& g : h.gpus)
    if (node.empty() || g.gpu.node == node) out.push_back(&g);
  auto key = [](const metrics::GpuHistory* g) {
    return std::make_tuple(g->gpu.ns, g->gpu.pod, g->gpu.gpu.size(), g->gpu.gpu, g->gpu.mig_instance.size(),
                           g->gpu.mig_instance);
  };
  std::stable_sort(out.begin(), out.end(), [&](auto* a, auto* b) { return key(a) < key(b); });
  return out;
}

std::string gpu_history_text(const metrics::UtilizationHistory& h, const std::vector<const metrics::GpuHistory*>& gpus,
                             const std::string& first, std::string (*label)(const metrics::GpuMetric&),
                             const IOStreams& io, const std::string& indent) {
  if (gpus.empty()) return "";
  const auto span = std::chrono::duration_cast<std::chrono::seconds>(h.window.end - h.window.start);
  Table t({first, "GPU", "UTILISATION", "MIN", "MEAN", "MAX", fmt::format("UNDER {:g}%", h.threshold)});
  for (const auto* g : gpus)
    t.add_row({label(g->gpu), gpu_device_index(g->gpu), sparkline(g->columns, io.unicode()), percent(g->min),
               percent(g->mean), percent(g->max), under_threshold_text(*g, h.window)});
  std::ostringstream out;
  out << indent << "GPU utilisation, last " << short_human_duration(span) << " (" << short_human_duration(h.window.step)
      << " a column, 0-100%):\n";
  std::istringstream rows(t.render(io));
  for (std::string line; std::getline(rows, line);) out << indent << line << "\n";
  return out.str();
}

nlohmann::ordered_json gpu_history_json(const metrics::UtilizationHistory& h,
                                        const std::vector<const metrics::GpuHistory*>& gpus) {
  using nlohmann::ordered_json;
  auto num = [](const std::optional<double>& v) { return v ? ordered_json(*v) : ordered_json(); };
  auto text = [](const std::string& s) { return s.empty() ? ordered_json() : ordered_json(s); };
  ordered_json list = ordered_json::array();
  const auto start = std::chrono::duration_cast<std::chrono::seconds>(h.window.start.time_since_epoch()).count();
  for (const auto* g : gpus) {
    ordered_json points = ordered_json::array();
    for (size_t i = 0; i < g->columns.size(); ++i)
      if (g->columns[i]) points.push_back({start + static_cast<long long>(i) * h.window.step.count(), *g->columns[i]});
    list.push_back({{"namespace", text(g->gpu.ns)},
                    {"instance", text(g->gpu.pod)},
                    {"node", text(g->gpu.node)},
                    {"gpu", text(g->gpu.gpu)},
                    {"migInstance", text(g->gpu.mig_instance)},
                    {"min", num(g->min)},
                    {"mean", num(g->mean)},
                    {"max", num(g->max)},
                    {"underThresholdSince", g->under_since ? ordered_json(format_rfc3339(*g->under_since)) : ordered_json()},
                    {"points", points}});
  }
  return {{"start", format_rfc3339(h.window.start)},
          {"end", format_rfc3339(h.window.end)},
          {"stepSeconds", h.window.step.count()},
          {"threshold", h.threshold},
          {"gpus", list}};
}

std::string job_gpu_history_text(const metrics::UtilizationHistory& h, const IOStreams& io) {
  return gpu_history_text(h, histories_of(h), "INSTANCE", [](const metrics::GpuMetric& g) { return g.pod; }, io);
}

std::string node_gpu_history_text(const metrics::UtilizationHistory& h, const std::string& node, const IOStreams& io) {
  return gpu_history_text(
      h, histories_of(h, node), "POD",
      [](const metrics::GpuMetric& g) { return g.pod.empty() ? std::string("-") : g.ns + "/" + g.pod; }, io, "  ");
}

void add_gpu_history(nlohmann::ordered_json& doc, const std::optional<metrics::UtilizationHistory>& h) {
  doc["gpuUtilizationHistory"] = h ? gpu_history_json(*h, histories_of(*h)) : nlohmann::ordered_json();
}

}  // namespace trainctl::print
