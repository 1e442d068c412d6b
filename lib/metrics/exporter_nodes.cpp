#include "metrics/exporter_nodes.h"

#include "core/errors.h"
#include "kube/json_util.h"
#include "kube/list_reads.h"
#include "kube/resource.h"

namespace trainctl::metrics {

const std::vector<std::string>& exporter_pod_selectors() {
  static const std::vector<std::string> selectors = {"app=nvidia-dcgm-exporter", "app.kubernetes.io/name=dcgm-exporter"};
  return selectors;
}

ExporterPods read_exporter_pods(kube::Client& client) {
  static const kube::FieldSet fields = {"metadata.name", "spec.nodeName", "status.podIP"};
  ExporterPods out;
  std::vector<kube::StreamRead> reads;
  for (const auto& selector : exporter_pod_selectors()) {
    kube::ListQuery q;
    q.label_selector = selector;
    reads.push_back(kube::list_read(kube::pods(), "", q, [&out](nlohmann::json& p) {
      const std::string node = kube::str(kube::at(p, "spec"), "nodeName");
      if (node.empty()) return;
      out.node_of_pod[kube::name_of(p)] = node;
      const std::string ip = kube::str(kube::at(p, "status"), "podIP");
      if (!ip.empty()) out.node_of_ip[ip] = node;
    }));
    reads.back().fields = &fields;
    reads.back().on_error = [](const ApiError&) {};
  }
  kube::stream_all(client, reads, kube::kPageSize, [&out] { out = ExporterPods{}; });
  return out;
}

bool unplaced(const GpuMetric& g, const std::set<std::string>& nodes) {
  return g.exporter != Exporter::Arena && nodes.count(g.node) == 0;
}

namespace {

// "10.0.0.11:9400" -> "10.0.0.11"; "[fd00::1]:9400" -> "fd00::1".
std::string host_of(const std::string& instance) {
  if (!instance.empty() && instance.front() == '[') {
    const auto close = instance.find(']');
    return close == std::string::npos ? instance : instance.substr(1, close - 1);
  }
  const auto colon = instance.rfind(':');
  return colon == std::string::npos || instance.find(':') != colon ? instance : instance.substr(0, colon);
}

const std::string* found(const std::map<std::string, std::string>& m, const std::string& key) {
  const auto it = m.find(key);
  return it == m.end() ? nullptr : &it->second;
}

}  // namespace

size_t place_on_nodes(std::vector<GpuMetric>& gpus, const std::set<std::string>& nodes, const ExporterPods& pods,
                      const std::map<std::string, std::string>& node_ips) {
  size_t placed = 0;
  for (auto& g : gpus) {
    if (!unplaced(g, nodes)) continue;
    const std::string host = host_of(g.instance);
    const std::string* node = found(pods.node_of_pod, g.node);
    if (!node && !host.empty()) node = found(pods.node_of_ip, host);
    if (!node && !host.empty()) node = found(node_ips, host);
    if (!node) continue;
    g.node = *node;
    ++placed;
  }
  return placed;
}

}  // namespace trainctl::metrics
