#include "cmd/gpu_metrics.h"

#include <algorithm>
#include <map>
#include <set>

#include "core/log.h"
#include "metrics/exporter_nodes.h"
#include "metrics/gpu_queries.h"

namespace trainctl {

namespace {

void say_why(Factory& f, const std::string& why) { f.io().err() << "GPU metrics unavailable: " << why << "\n"; }

// The GPUs the query answers, or nullopt (and why, on stderr) without a source or an answer.
std::optional<std::vector<metrics::GpuMetric>> query_gpus(Factory& f, const std::string& promql) {
  const auto& lookup = f.metrics_source();
  if (!lookup.source) {
    say_why(f, lookup.why);
    return std::nullopt;
  }
  try {
    auto gpus = metrics::gpu_metrics(lookup.source->query(promql));
    log::debug("{} GPU series from {}", gpus.size(), lookup.source->description());
    return gpus;
  } catch (const metrics::PrometheusError& e) {
    say_why(f, e.what());
    return std::nullopt;
  }
}

long long window_of(const std::optional<metrics::IdleRule>& idle) { return idle ? idle->window.count() : 0; }

// dcgm-exporter before 3.1.6 names its own pod in Hostname (metrics/exporter_nodes.h): where
// some series name no node read, or a node asked for with GPUs has none, the exporter pods
// are read (two LISTs) and, for the nodes asked for, their series queried by the pods' names.
// A current exporter's answer costs nothing more.
void place_old_exporters(Factory& f, const std::vector<std::string>& nodes, const std::vector<jobs::NodeUsage>& usage,
                         long long window, std::vector<metrics::GpuMetric>& gpus) {
  std::set<std::string> known;
  std::map<std::string, std::string> node_ips;
  for (const auto& n : usage) {
    known.insert(n.name);
    if (!n.ip.empty()) node_ips[n.ip] = n.name;
  }
  std::set<std::string> silent;  // nodes asked for, with GPUs, of which no series speaks
  if (!nodes.empty())
    for (const auto& n : usage)
      if (n.total > 0 && std::none_of(gpus.begin(), gpus.end(), [&](const auto& g) { return g.node == n.name; }))
        silent.insert(n.name);
  const bool stray = std::any_of(gpus.begin(), gpus.end(), [&](const auto& g) { return metrics::unplaced(g, known); });
  if (!stray && silent.empty()) return;
  const metrics::ExporterPods pods = metrics::read_exporter_pods(f.client());
  std::vector<std::string> names;
  for (const auto& [pod, node] : pods.node_of_pod)
    if (silent.count(node)) names.push_back(pod);
  if (!names.empty())
    if (auto more = query_gpus(f, metrics::node_gpu_query(names, window)))
      gpus.insert(gpus.end(), more->begin(), more->end());
  const size_t placed = metrics::place_on_nodes(gpus, known, pods, node_ips);
  log::debug("{} GPU series placed on nodes by their exporter pods", placed);
  // Series of nodes not asked for (an exporter pod's name that matched) are not shown.
  if (!nodes.empty()) std::erase_if(gpus, [&](const auto& g) { return metrics::unplaced(g, known); });
}

}  // namespace

std::optional<std::vector<metrics::GpuMetric>> job_gpu_metrics(Factory& f, const jobs::TrainingJob& job,
                                                               const std::optional<metrics::IdleRule>& idle) {
  std::vector<std::string> pods;
  for (const auto& i : job.instances)
    if (i.phase == "Running") pods.push_back(i.name);
  if (pods.empty()) {
    if (!f.metrics_source().source) say_why(f, f.metrics_source().why);
    return f.metrics_source().source ? std::optional(std::vector<metrics::GpuMetric>{}) : std::nullopt;
  }
  auto gpus = query_gpus(f, metrics::job_gpu_query(job.namespace_, pods, window_of(idle)));
  if (!gpus) return gpus;
  // Arena's exporter names no namespace in its query: keep the job's namespace only.
  std::erase_if(*gpus, [&](const metrics::GpuMetric& g) { return !g.ns.empty() && g.ns != job.namespace_; });
  if (idle) {
    metrics::PodCreationIndex created;
    for (const auto& i : job.instances)
      if (i.created) created.add(job.namespace_, i.name, *i.created);
    metrics::mark_idle(*gpus, created, f.clock()(), *idle);
  }
  return gpus;
}

std::optional<std::vector<metrics::GpuMetric>> node_gpu_metrics(Factory& f, const std::vector<std::string>& nodes,
                                                                const std::vector<jobs::NodeUsage>& usage,
                                                                const std::optional<metrics::IdleRule>& idle) {
  auto gpus = query_gpus(f, metrics::node_gpu_query(nodes, window_of(idle)));
  if (gpus && !usage.empty()) place_old_exporters(f, nodes, usage, window_of(idle), *gpus);
  if (gpus && idle) {
    metrics::PodCreationIndex created;
    for (const auto& n : usage)
      for (const auto& p : n.pods)
        if (p.created) created.add(p.namespace_, p.name, *p.created);
    metrics::mark_idle(*gpus, created, f.clock()(), *idle);
  }
  return gpus;
}

}  // namespace trainctl
