#include "print/node_views.h"

#include <algorithm>
#include <fmt/format.h>
#include <set>
#include <tuple>

#include "print/bar.h"
#include "print/escape.h"
#include "print/gpu_metric_text.h"
#include "print/gpu_sparkline.h"
#include "print/output.h"
#include "print/table.h"

namespace trainctl::print {

using jobs::mode_name;
using jobs::NodeMode;

namespace {

const char* const kDashes =
    "-----------------------------------------------------------------------------------------";

std::string percent(long long part, long long total) {
  // Arena: int64(float64(part) / float64(total) * 100), i.e. truncated.
  const long long p =
      total > 0 ? static_cast<long long>(static_cast<double>(part) / static_cast<double>(total) * 100) : 0;
  return std::to_string(part) + "/" + std::to_string(total) + " (" + std::to_string(p) + "%)";
}

// The GPUs `gpus` reports on node `name`, by device index.
std::vector<const metrics::GpuMetric*> gpus_on(const NodeGpus& gpus, const std::string& name) {
  std::vector<const metrics::GpuMetric*> out;
  if (!gpus) return out;
  for (const auto& g : *gpus)
    if (g.node == name) out.push_back(&g);
  sort_by_device_index(out);
  return out;
}

// The average duty cycle of the GPUs with one, and how many there were.
std::pair<double, int> average_utilization(const std::vector<const metrics::GpuMetric*>& gpus) {
  double sum = 0;
  int n = 0;
  for (const auto* g : gpus)
    if (g->utilization) {
      sum += *g->utilization;
      ++n;
    }
  return {n ? sum / n : 0.0, n};
}

// A table indented under its heading.
std::string indent(const std::string& table) {
  std::string out;
  for (size_t pos = 0; pos < table.size();) {
    size_t end = table.find('\n', pos);
    out += "  " + table.substr(pos, end - pos + 1);
    pos = end == std::string::npos ? table.size() : end + 1;
  }
  return out;
}

// With metrics: the average duty cycle of the shown nodes' GPUs that report one.
std::string cluster_utilization(const std::vector<jobs::NodeUsage>& nodes, const NodeGpus& gpus) {
  if (!gpus) return "";
  std::vector<const metrics::GpuMetric*> all;
  for (const auto& n : nodes)
    for (const auto* g : gpus_on(gpus, n.name)) all.push_back(g);
  const auto [avg, count] = average_utilization(all);
  if (count == 0) return "Average GPU Utilization In Cluster:\nN/A (no GPU reports one)\n";
  return fmt::format("Average GPU Utilization In Cluster:\n{:.1f}% ({} GPUs)\n", avg, count);
}

std::string gib(const std::optional<double>& bytes) {
  return bytes ? fmt::format("{:.1f}", *bytes / 1073741824.0) : std::string("N/A");
}

// With an idle rule: how many of the shown nodes' allocated GPUs are idle.
std::string cluster_idle(const std::vector<jobs::NodeUsage>& nodes, const NodeGpus& gpus, const IdleRule& idle) {
  if (!gpus || !idle) return "";
  std::vector<const metrics::GpuMetric*> all;
  for (const auto& n : nodes)
    for (const auto* g : gpus_on(gpus, n.name)) all.push_back(g);
  return idle_footer(all, *idle);
}

int idle_count(const std::vector<const metrics::GpuMetric*>& gpus) {
  return static_cast<int>(std::count_if(gpus.begin(), gpus.end(), [](const auto* g) { return g->idle.value_or(false); }));
}

}  // namespace

std::string node_summary(const std::vector<jobs::NodeUsage>& nodes, const IOStreams& io, const NodeGpus& gpus,
                         const IdleRule& idle) {
  std::set<NodeMode> modes;
  bool any_unhealthy = false;
  for (const auto& n : nodes) {
    if (n.mode != NodeMode::None) modes.insert(n.mode);
    any_unhealthy = any_unhealthy || n.unhealthy > 0;
  }
  const bool show_mode = modes.size() > 1;
  const bool bar = io.is_tty();
  std::vector<std::string> header = {"NAME", "IPADDRESS", "ROLE", "STATUS", "GPU(Total)", "GPU(Allocated)"};
  if (show_mode) header.push_back("GPU(Mode)");
  if (any_unhealthy) header.push_back("UNHEALTHY");
  if (gpus) header.push_back("GPU(Util)");
  if (gpus && idle) header.push_back("GPU(Idle)");
  if (bar) header.push_back("GPU(Usage)");
  Table t(header);
  t.set_status_column(3);
  long long total = 0, allocated = 0, unhealthy = 0;
  for (const auto& n : nodes) {
    std::vector<std::string> row = {
        n.name, n.ip, n.role, n.status, std::to_string(n.total), std::to_string(n.allocated)};
    if (show_mode) row.push_back(mode_name(n.mode));
    if (any_unhealthy) row.push_back(std::to_string(n.unhealthy));
    if (gpus) {
      const auto [avg, count] = average_utilization(gpus_on(gpus, n.name));
      row.push_back(count ? fmt::format("{:.1f}%", avg) : "N/A");
      if (idle) row.push_back(std::to_string(idle_count(gpus_on(gpus, n.name))));
    }
    if (bar) row.push_back(usage_bar(n.allocated, n.total));
    t.add_row(std::move(row));
    total += n.total;
    allocated += n.allocated;
    unhealthy += n.unhealthy;
  }
  std::string out = t.render(io);
  out += std::string(kDashes) + "\n";
  out += "Allocated/Total GPUs In Cluster:\n" + percent(allocated, total) + "\n";
  if (unhealthy > 0) out += "Unhealthy/Total GPUs In Cluster:\n" + percent(unhealthy, total) + "\n";
  out += cluster_utilization(nodes, gpus);
  out += cluster_idle(nodes, gpus, idle);
  return out;
}

std::string node_details(const std::vector<jobs::NodeUsage>& nodes, const IOStreams& io, const NodeGpus& gpus,
                         const IdleRule& idle, const metrics::UtilizationHistory* history) {
  std::string out;
  long long total = 0, allocated = 0;
  for (const auto& n : nodes) {
    out += "\nName:     " + sanitize(n.name) + "\n";
    out += "Status:   " + n.status + "\n";
    out += "Role:     " + sanitize(n.role) + "\n";
    out += "Type:     " + mode_name(n.mode) + "\n";
    out += "Address:  " + sanitize(n.ip) + "\n";
    out += "Instances:\n";
    if (n.pods.empty()) {
      out += "  (none)\n";
    } else {
      Table t({"NAMESPACE", "NAME", "STATUS", "GPU(Requested)"});
      t.set_status_column(2);
      for (const auto& p : n.pods) t.add_row({p.namespace_, p.name, p.status, std::to_string(p.gpus)});
      out += indent(t.render(io));
    }
    out += "GPU Summary:\n";
    out += "  Total GPUs:      " + std::to_string(n.total) + "\n";
    out += "  Allocated GPUs:  " + std::to_string(n.allocated) + "\n";
    out += "  Unhealthy GPUs:  " + std::to_string(n.unhealthy) + "\n";
    if (const auto on = gpus_on(gpus, n.name); !on.empty()) {
      out += "GPUs:\n";
      std::vector<std::string> header = {"INDEX", "DUTY_CYCLE", "MEMORY(Used/Total GiB)", "INSTANCE"};
      if (idle) header.push_back("IDLE");
      Table t(header);
      for (const auto* g : on) {
        std::vector<std::string> row = {
            gpu_device_index(*g), duty_cycle_text(*g),
            g->memory_used || g->memory_total ? gib(g->memory_used) + "/" + gib(g->memory_total) : "N/A",
            g->pod.empty() ? std::string("N/A") : g->ns + "/" + g->pod};
        if (idle) row.push_back(idle_text(*g));
        t.add_row(std::move(row));
      }
      out += indent(t.render(io));
    }
    if (history) out += node_gpu_history_text(*history, n.name, io);
    total += n.total;
    allocated += n.allocated;
  }
  out += std::string(kDashes) + "\n";
  out += "Allocated/Total GPUs In Cluster:\n" + percent(allocated, total) + "\n";
  out += cluster_utilization(nodes, gpus);
  out += cluster_idle(nodes, gpus, idle);
  return out;
}

nlohmann::ordered_json nodes_json(const std::vector<jobs::NodeUsage>& nodes, const NodeGpus& gpus,
                                  const metrics::UtilizationHistory* history) {
  auto arr = nlohmann::ordered_json::array();
  for (const auto& n : nodes) {
    auto j = n.to_json();
    if (!gpus) {
      j["gpuMetrics"] = nullptr;
    } else {
      j["gpuMetrics"] = nlohmann::ordered_json::array();
      for (const auto* g : gpus_on(gpus, n.name)) {
        const nlohmann::ordered_json m = gpu_metric_json(*g);
        j["gpuMetrics"].push_back({{"index", gpu_device_index(*g)},
                                   {"uuid", g->uuid},
                                   {"namespace", g->ns},
                                   {"instance", g->pod},
                                   {"gpuDutyCycle", m.at("gpuDutyCycle")},
                                   {"usedGPUMemory", m.at("usedGPUMemory")},
                                   {"totalGPUMemory", m.at("totalGPUMemory")},
                                   {"maxGPUDutyCycle", m.at("maxGPUDutyCycle")},
                                   {"idle", m.at("idle")}});
      }
    }
    if (history) j["gpuUtilizationHistory"] = gpu_history_json(*history, histories_of(*history, n.name));
    arr.push_back(std::move(j));
  }
  return arr;
}

}  // namespace trainctl::print
