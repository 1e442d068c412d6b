#include "cmd/gpu_metrics.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include "core/log.h"
#include "metrics/exporter_nodes.h"
#include "metrics/gpu_queries.h"
#include "metrics/holders.h"

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

// The utilisation history the range query answers, or nullopt (and why, on stderr).
std::optional<metrics::UtilizationHistory> query_history(Factory& f, const std::string& promql,
                                                         const metrics::IdleRule& rule) {
  const auto& lookup = f.metrics_source();
  if (!lookup.source) return std::nullopt;
  const auto window = metrics::history_window(f.clock()(), rule.window);
  try {
    return metrics::gpu_history(lookup.source->query_range(promql, window.start, window.end, window.step), window,
                                rule.threshold);
  } catch (const metrics::PrometheusError& e) {
    f.io().err() << "GPU utilisation history unavailable: " << e.what() << "\n";
    return std::nullopt;
  }
}

std::vector<std::string> running_pods(const jobs::TrainingJob& job) {
  std::vector<std::string> pods;
  for (const auto& i : job.instances)
    if (i.phase == "Running") pods.push_back(i.name);
  return pods;
}

bool has_pods(const std::vector<jobs::NodeUsage>& usage) {
  return std::any_of(usage.begin(), usage.end(), [](const jobs::NodeUsage& n) { return !n.pods.empty(); });
}

// The pods of `usage` that request GPUs: the only ones a GPU's pod label can name as its holder
// (metrics/holders.h).
metrics::RequestsGpus gpu_pods(const std::vector<jobs::NodeUsage>& usage) {
  auto names = std::make_shared<std::set<std::pair<std::string, std::string>>>();
  for (const auto& n : usage)
    for (const auto& p : n.pods)
      if (p.gpus > 0) {
        names->insert({p.namespace_, p.name});
        names->insert({"", p.name});
      }
  return [names](const std::string& ns, const std::string& name) { return names->count({ns, name}) > 0; };
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
  const auto pods = running_pods(job);
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
  if (gpus && has_pods(usage)) {
    const auto requests_gpus = gpu_pods(usage);
    for (auto& g : *gpus) metrics::forget_other_pod(g, requests_gpus);
  }
  if (gpus && idle) {
    metrics::PodCreationIndex created;
    for (const auto& n : usage)
      for (const auto& p : n.pods)
        if (p.created) created.add(p.namespace_, p.name, *p.created);
    metrics::mark_idle(*gpus, created, f.clock()(), *idle);
  }
  return gpus;
}

std::optional<metrics::UtilizationHistory> job_gpu_history(Factory& f, const jobs::TrainingJob& job,
                                                           const metrics::IdleRule& rule) {
  const auto pods = running_pods(job);
  if (pods.empty()) return std::nullopt;
  auto h = query_history(f, metrics::job_utilization_query(job.namespace_, pods), rule);
  // Arena's exporter names no namespace in its query: keep the job's namespace only.
  if (h) std::erase_if(h->gpus, [&](const metrics::GpuHistory& g) { return !g.gpu.ns.empty() && g.gpu.ns != job.namespace_; });
  return h;
}

std::optional<metrics::UtilizationHistory> node_gpu_history(Factory& f, const std::vector<std::string>& nodes,
                                                            const std::vector<jobs::NodeUsage>& usage,
                                                            const metrics::IdleRule& rule) {
  auto h = query_history(f, metrics::node_utilization_query(nodes), rule);
  if (h && has_pods(usage)) {
    const auto requests_gpus = gpu_pods(usage);
    for (auto& g : h->gpus) metrics::forget_other_pod(g.gpu, requests_gpus);
  }
  return h;
}

}  // namespace trainctl
