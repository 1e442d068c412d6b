#include "cmd/gpu_metrics.h"

#include "core/log.h"

namespace trainctl {

namespace {

void say_why(Factory& f, const std::string& why) { f.io().err() << "GPU metrics unavailable: " << why << "\n"; }

}  // namespace

std::optional<std::vector<metrics::GpuMetric>> job_gpu_metrics(Factory& f, const jobs::TrainingJob& job) {
  std::vector<std::string> pods;
  for (const auto& i : job.instances)
    if (i.phase == "Running") pods.push_back(i.name);
  const auto& lookup = f.metrics_source();
  if (!lookup.source) {
    say_why(f, lookup.why);
    return std::nullopt;
  }
  if (pods.empty()) return std::vector<metrics::GpuMetric>{};
  try {
    auto gpus = metrics::gpu_metrics(lookup.source->query(metrics::job_gpu_query(job.namespace_, pods)));
    // Arena's exporter names no namespace in its query: keep the job's namespace only.
    std::erase_if(gpus, [&](const metrics::GpuMetric& g) { return !g.ns.empty() && g.ns != job.namespace_; });
    log::debug("{} GPU series for job {}/{} from {}", gpus.size(), job.namespace_, job.name, lookup.source->description());
    return gpus;
  } catch (const metrics::PrometheusError& e) {
    say_why(f, e.what());
    return std::nullopt;
  }
}

std::optional<std::vector<metrics::GpuMetric>> node_gpu_metrics(Factory& f, const std::vector<std::string>& nodes) {
  const auto& lookup = f.metrics_source();
  if (!lookup.source) {
    say_why(f, lookup.why);
    return std::nullopt;
  }
  try {
    return metrics::gpu_metrics(lookup.source->query(metrics::node_gpu_query(nodes)));
  } catch (const metrics::PrometheusError& e) {
    say_why(f, e.what());
    return std::nullopt;
  }
}

}  // namespace trainctl
