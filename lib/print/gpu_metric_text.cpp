#include "print/gpu_metric_text.h"

#include <algorithm>
#include <fmt/format.h>
#include <tuple>

namespace trainctl::print {

std::vector<const metrics::GpuMetric*> gpus_of(const std::vector<metrics::GpuMetric>& gpus, const std::string& pod) {
  std::vector<const metrics::GpuMetric*> out;
  for (const auto& g : gpus)
    if (g.pod == pod) out.push_back(&g);
  sort_by_device_index(out);
  return out;
}

void sort_by_device_index(std::vector<const metrics::GpuMetric*>& gpus) {
  auto index = [](const metrics::GpuMetric* g) {
    return std::make_tuple(g->gpu.size(), g->gpu, g->mig_instance.size(), g->mig_instance);  // 2 before 10
  };
  std::sort(gpus.begin(), gpus.end(), [&](auto* a, auto* b) { return index(a) < index(b); });
}

std::string gpu_device_index(const metrics::GpuMetric& g) {
  const std::string gpu = g.gpu.empty() ? "N/A" : g.gpu;
  return g.mig_instance.empty() ? gpu : gpu + "/mig-" + g.mig_instance;
}

std::string duty_cycle_text(const metrics::GpuMetric& g) {
  return g.utilization ? fmt::format("{:.1f}%", *g.utilization) : "N/A";
}

std::string gpu_memory_text(const metrics::GpuMetric& g) {
  constexpr double kMiB = 1048576.0;
  if (!g.memory_used && !g.memory_total) return "N/A";
  auto mib = [&](const std::optional<double>& v) { return v ? fmt::format("{:.1f}", *v / kMiB) : std::string("N/A"); };
  return mib(g.memory_used) + "/" + mib(g.memory_total) + "(MiB)";
}

nlohmann::ordered_json gpu_metric_json(const metrics::GpuMetric& g) {
  auto num = [](const std::optional<double>& v) { return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(); };
  return {{"gpuDutyCycle", num(g.utilization)},
          {"usedGPUMemory", num(g.memory_used)},
          {"totalGPUMemory", num(g.memory_total)},
          {"maxGPUDutyCycle", num(g.max_utilization)},
          {"idle", g.idle ? nlohmann::ordered_json(*g.idle) : nlohmann::ordered_json()}};
}

std::string idle_text(const metrics::GpuMetric& g) { return g.idle ? (*g.idle ? "yes" : "no") : "N/A"; }

std::string idle_footer(const std::vector<const metrics::GpuMetric*>& gpus, const metrics::IdleRule& rule) {
  int held = 0, idle = 0;
  for (const auto* g : gpus)
    if (g->idle) {
      ++held;
      idle += *g->idle ? 1 : 0;
    }
  if (held == 0) return "";
  return fmt::format("Idle/Allocated GPUs: {}/{} ({})\n", idle, held, metrics::describe(rule));
}

}  // namespace trainctl::print
