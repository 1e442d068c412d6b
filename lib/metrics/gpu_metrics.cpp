// GPU series of both exporter families (see gpu_metrics.h, docs/metrics.md).
#include "metrics/gpu_metrics.h"

#include <cmath>
#include <map>
#include <set>
#include <string_view>
#include <tuple>

namespace trainctl::metrics {

namespace {

constexpr double kMiB = 1048576.0;  // DCGM's FB_* fields are in MiB

// The first non-empty label of `names`.
const std::string& first_label(const Series& s, std::initializer_list<const char*> names) {
  for (const char* n : names)
    if (const std::string& v = s.label(n); !v.empty()) return v;
  return s.label("");
}

// The DCGM fields of one GPU, gathered before they become a GpuMetric.
struct Fields {
  GpuMetric gpu;
  std::optional<double> util, gr_active, fb_used, fb_free, fb_reserved;
  std::optional<double> duty, mem_used, mem_total;
  std::optional<double> max_util, max_gr_active, max_duty;  // over the idle window
  bool current = false;  // an instant series: the GPU reports now, not only earlier in the window
};

}  // namespace

const char* exporter_name(Exporter e) {
  switch (e) {
    case Exporter::Arena: return "arena";
    case Exporter::DcgmMig: return "dcgm-mig";
    default: return "dcgm";
  }
}

std::vector<GpuMetric> gpu_metrics(const std::vector<Series>& series) {
  using Key = std::tuple<int, std::string, std::string, std::string, std::string, std::string>;
  std::map<Key, Fields> gpus;
  for (const auto& s : series) {
    const std::string& name = s.label("__name__");
    const double v = s.last();
    if (name.empty() || std::isnan(v)) continue;
    const bool arena = name.rfind("nvidia_gpu_", 0) == 0;
    if (!arena && name.rfind("DCGM_FI_", 0) != 0) continue;
    GpuMetric g;
    if (arena) {
      g.exporter = Exporter::Arena;
      g.node = s.label("node_name");
      g.gpu = s.label("minor_number");
      g.uuid = s.label("uuid");
      g.ns = s.label("namespace_name");
      g.pod = s.label("pod_name");
    } else {
      g.mig_instance = s.label("GPU_I_ID");
      g.exporter = g.mig_instance.empty() ? Exporter::Dcgm : Exporter::DcgmMig;
      g.node = first_label(s, {"Hostname", "hostname"});
      g.gpu = s.label("gpu");
      g.uuid = first_label(s, {"UUID", "uuid"});
      g.instance = s.label("instance");
      // The job's pod: exported_* when Prometheus renamed the exporter's own labels, else the
      // -o names, else the plain ones.
      if (!s.label("exported_pod").empty()) {
        g.pod = s.label("exported_pod");
        g.ns = s.label("exported_namespace");
      } else if (!s.label("pod_name").empty()) {
        g.pod = s.label("pod_name");
        g.ns = s.label("pod_namespace");
      } else {
        g.pod = s.label("pod");
        g.ns = s.label("namespace");
      }
    }
    const Key key{static_cast<int>(g.exporter), g.node, g.gpu, g.mig_instance, g.ns, g.pod};
    auto [it, fresh] = gpus.try_emplace(key);
    Fields& f = it->second;
    if (fresh) f.gpu = g;
    f.gpu.sampled_at = s.points.back().first;
    if (!s.label(kWindowMaxLabel).empty()) {
      if (name == "DCGM_FI_DEV_GPU_UTIL") f.max_util = v;
      else if (name == "DCGM_FI_PROF_GR_ENGINE_ACTIVE") f.max_gr_active = v;
      else if (name == "nvidia_gpu_duty_cycle") f.max_duty = v;
      continue;
    }
    f.current = true;
    if (name == "DCGM_FI_DEV_GPU_UTIL") f.util = v;
    else if (name == "DCGM_FI_PROF_GR_ENGINE_ACTIVE") f.gr_active = v;
    else if (name == "DCGM_FI_DEV_FB_USED") f.fb_used = v;
    else if (name == "DCGM_FI_DEV_FB_FREE") f.fb_free = v;
    else if (name == "DCGM_FI_DEV_FB_RESERVED") f.fb_reserved = v;
    else if (name == "nvidia_gpu_duty_cycle") f.duty = v;
    else if (name == "nvidia_gpu_memory_used_bytes") f.mem_used = v;
    else if (name == "nvidia_gpu_memory_total_bytes") f.mem_total = v;
  }
  // A device (exporter, node, GPU, MIG instance) that reports now under some pod labels: its
  // entries seen only in the window arms are stale series of the same GPU (their pod labels
  // changed when a pod took or left it) and are left out. A device with window series only
  // (an answer without instant arms, or a GPU that stopped reporting) stays.
  std::set<std::tuple<int, std::string, std::string, std::string>> reporting;
  for (const auto& [key, f] : gpus)
    if (f.current) reporting.insert({std::get<0>(key), std::get<1>(key), std::get<2>(key), std::get<3>(key)});
  std::vector<GpuMetric> out;
  for (auto& [key, f] : gpus) {
    if (!f.current && reporting.count({std::get<0>(key), std::get<1>(key), std::get<2>(key), std::get<3>(key)}))
      continue;
    GpuMetric g = f.gpu;
    if (g.exporter == Exporter::Arena) {
      g.utilization = f.duty;
      g.memory_used = f.mem_used;
      g.memory_total = f.mem_total;
      g.max_utilization = f.max_duty;
    } else {
      // GPU_UTIL is not reported for MIG instances; GR_ENGINE_ACTIVE is a ratio.
      if (f.util && g.exporter == Exporter::Dcgm) g.utilization = f.util;
      else if (f.gr_active) g.utilization = *f.gr_active * 100.0;
      if (f.max_util && g.exporter == Exporter::Dcgm) g.max_utilization = f.max_util;
      else if (f.max_gr_active) g.max_utilization = *f.max_gr_active * 100.0;
      if (f.fb_used) g.memory_used = *f.fb_used * kMiB;
      if (f.fb_used && f.fb_free) g.memory_total = (*f.fb_used + *f.fb_free + f.fb_reserved.value_or(0)) * kMiB;
    }
    out.push_back(std::move(g));
  }
  return out;
}

}  // namespace trainctl::metrics
