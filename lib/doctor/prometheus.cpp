// GPU metrics (docs/doctor.md, "GPU metrics"): the Prometheus trainctl would read (found as
// metrics/source.h finds it, with the Service lists sent in the one round) and, through one
// query to it, the GPU exporter whose series are there: dcgm-exporter's utilisation
// (DCGM_FI_DEV_GPU_UTIL, or DCGM_FI_PROF_GR_ENGINE_ACTIVE for MIG devices) or Arena's
// exporter's nvidia_gpu_duty_cycle, and the label that names each GPU's pod (docs/metrics.md §2).
#include <set>

#include "core/errors.h"
#include "doctor/checks.h"
#include "metrics/source.h"

namespace trainctl::doctor {

namespace {

using nlohmann::json;

constexpr const char* kUtilisation =
    "{__name__=~\"DCGM_FI_DEV_GPU_UTIL|DCGM_FI_PROF_GR_ENGINE_ACTIVE|nvidia_gpu_duty_cycle\"}";

std::string prometheus_key(size_t i) { return "prometheus:" + std::to_string(i); }

// Which label of the series names the pod holding the GPU, as trainctl reads them.
std::string pod_label(const std::vector<metrics::Series>& series) {
  for (const char* l : {"exported_pod", "pod_name", "pod"})
    for (const auto& s : series)
      if (!s.label(l).empty()) return l;
  return "";
}

void judge_exporter(const metrics::MetricsSource& source, Report& r) {
  Finding f{Section::Metrics, "metrics.exporter", "GPU exporter"};
  std::vector<metrics::Series> series;
  try {
    series = source.query(kUtilisation);
  } catch (const Error& e) {
    f.status = Status::Warning;
    f.result = "not known: the query failed";
    f.reason = e.what();
    f.fix = "check that the Prometheus answers (and, through the API server, that you may get services/proxy in "
            "its namespace)";
    r.add(std::move(f));
    return;
  }
  std::set<std::string> dcgm_gpus, arena_gpus, nodes;
  for (const auto& s : series) {
    const std::string node = !s.label("Hostname").empty() ? s.label("Hostname")
                             : !s.label("hostname").empty() ? s.label("hostname")
                                                             : s.label("node_name");
    nodes.insert(node);
    const bool arena = s.label("__name__") == "nvidia_gpu_duty_cycle";
    const std::string gpu = node + "/" + (arena ? s.label("minor_number") : s.label("gpu")) + "/" + s.label("GPU_I_ID");
    (arena ? arena_gpus : dcgm_gpus).insert(gpu);
  }
  const std::string pods = pod_label(series);
  f.details = {{"dcgmGPUs", dcgm_gpus.size()}, {"arenaGPUs", arena_gpus.size()}, {"nodes", nodes.size()},
               {"podLabel", pods}};
  if (series.empty()) {
    f.status = Status::Warning;
    f.result = "no GPU utilisation series in " + source.description();
    f.reason = "GPU(Util) and idle GPUs come from dcgm-exporter's or Arena's exporter's series; there are none";
    f.fix = "install NVIDIA's dcgm-exporter (the gpu-operator has it) and have this Prometheus scrape it";
    r.add(std::move(f));
    return;
  }
  f.status = Status::Ok;
  std::string what;
  if (!dcgm_gpus.empty()) what = "dcgm-exporter: " + std::to_string(dcgm_gpus.size()) + " GPUs";
  if (!arena_gpus.empty())
    what += (what.empty() ? "" : "; ") + std::string("Arena's gpu exporter: ") + std::to_string(arena_gpus.size()) + " GPUs";
  f.result = what + " on " + std::to_string(nodes.size()) + (nodes.size() == 1 ? " node" : " nodes") +
             (pods.empty() ? "; no series names a pod yet (no GPU is held, or the exporter does not map pods)"
                           : "; pods in label " + pods);
  r.add(std::move(f));
}

}  // namespace

void ask_metrics(Probe& p, const Context& c) {
  if (!c.options.prometheus.url.empty()) return;
  const auto requests = metrics::prometheus_service_requests();
  for (size_t i = 0; i < requests.size(); ++i) p.ask(prometheus_key(i), requests[i]);
}

void judge_metrics(kube::Client& client, const Probe& p, const Context& c, Report& r) {
  Finding f{Section::Metrics, "metrics.prometheus", "Prometheus"};
  std::optional<metrics::PrometheusService> found;
  if (c.options.prometheus.url.empty()) {
    std::vector<kube::Client::Result> results;
    for (size_t i = 0; i < metrics::prometheus_selectors().size(); ++i) results.push_back(p.result(prometheus_key(i)));
    try {
      found = metrics::pick_prometheus_service(results);
    } catch (const Error& e) {
      f.status = Status::Warning;
      f.result = "not known: the Services could not be listed";
      f.reason = e.what();
      f.fix = "name it with --prometheus URL (or TRAINCTL_PROMETHEUS), or ask for list on services";
      r.add(std::move(f));
      return;
    }
  }
  const metrics::MetricsLookup lookup = metrics::metrics_source_for(client, c.options.prometheus, found);
  if (!lookup.source) {
    r.add(std::move(f), Status::Warning, "none found",
          "name it with --prometheus URL (or TRAINCTL_PROMETHEUS, or prometheus: in the config file), or label its "
          "Service kubernetes.io/service-name=prometheus-server",
          "top job, get -g, top node and list --idle show GPU utilisation from Prometheus; without one they show N/A");
    return;
  }
  f.status = Status::Ok;
  std::string where = lookup.source->description();
  if (where.rfind("Prometheus ", 0) == 0) where.erase(0, std::string("Prometheus ").size());
  f.result = where + (found ? " (found by its Service's labels, queried through the API server)" : " (as named)");
  f.details = {{"source", lookup.source->description()}, {"found", found.has_value()}};
  r.add(std::move(f));
  ++r.round_trips;
  judge_exporter(*lookup.source, r);
}

}  // namespace trainctl::doctor
