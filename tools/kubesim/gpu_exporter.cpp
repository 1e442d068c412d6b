// GPU exporter endpoints (gpu_exporter.h). The dcgm-exporter exposition follows its template
// gpuMetricsFormat (NVIDIA/dcgm-exporter internal/pkg/rendermetrics/render_metrics.go): a
// "# HELP"/"# TYPE" pair per counter, then per GPU the labels gpu, UUID, pci_bus_id, device,
// modelName, GPU_I_PROFILE and GPU_I_ID (MIG devices only), Hostname, then the CSV's label
// fields and the pod attributes in key order (a Go template ranges over a map sorted), no
// timestamp. Help texts and types are those of etc/default-counters.csv (GR_ENGINE_ACTIVE: of
// etc/dcp-metrics-included.csv). Before 3.1.6, Hostname is os.Hostname(), the exporter pod's
// name (pkg/dcgmexporter/gpu_collector.go NewDCGMCollector; NODE_NAME is read from 3.1.6 on).
// Arena's exporter: the names and labels Arena reads (kubeflow/arena pkg/prometheus/query.go),
// values in bytes and percent; its source is not public, so its help texts are not copied.
#include "kubesim/gpu_exporter.h"

#include <charconv>
#include <cmath>
#include <vector>

#include "kubesim/controllers/context.h"
#include "kubesim/gpu_series.h"
#include "kubesim/store.h"

namespace kubesim {

namespace {

constexpr const char* kDriverVersion = "550.54.15";

struct Counter {
  const char* name;
  const char* help;
};

// In the order of dcgm-exporter's CSV files.
const std::vector<Counter>& dcgm_counters() {
  static const std::vector<Counter> c = {
      {"DCGM_FI_DEV_GPU_UTIL", "GPU utilization (in %)."},
      {"DCGM_FI_DEV_FB_FREE", "Framebuffer memory free (in MiB)."},
      {"DCGM_FI_DEV_FB_USED", "Framebuffer memory used (in MiB)."},
      {"DCGM_FI_PROF_GR_ENGINE_ACTIVE", "Ratio of time the graphics engine is active."},
  };
  return c;
}

const std::vector<Counter>& arena_counters() {
  static const std::vector<Counter> c = {
      {"nvidia_gpu_duty_cycle", ""}, {"nvidia_gpu_memory_used_bytes", ""}, {"nvidia_gpu_memory_total_bytes", ""}};
  return c;
}

bool known_family(const std::string& f) { return f == "dcgm" || f == "dcgm-before-3.1.6" || f == "arena"; }

// The exposition format's label value escapes: backslash, double quote, line feed.
std::string escape_value(const std::string& v) {
  std::string out;
  for (char c : v) {
    if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\\\"";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

std::string number(double v) {
  if (std::isnan(v)) return "NaN";
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

std::string node_ip(const Store& store, const std::string& node) {
  const ResourceType* nodes = store.find("", "v1", "nodes");
  auto n = nodes ? store.get_shared(*nodes, "", node) : nullptr;
  if (n)
    for (const auto& a : n->value("status", json::object()).value("addresses", json::array()))
      if (a.value("type", "") == "InternalIP") return a.value("address", "");
  return node;
}

// The exporter pod's IP where kubesim has that pod (gpu-operator/<exporter_pod>), else the node's.
std::string exporter_ip(const Store& store, const std::string& node) {
  const ResourceType* pods = store.find("", "v1", "pods");
  auto p = pods ? store.get_shared(*pods, "gpu-operator", exporter_pod(node)) : nullptr;
  const std::string ip = p ? p->value("status", json::object()).value("podIP", "") : "";
  return ip.empty() ? node_ip(store, node) : ip;
}

// The node's GPU series at now (the newest simulated scrape, at most 15 s old), without the
// target labels (instance, job) that Prometheus adds and the exporter does not expose.
std::vector<promql::Series> node_series(const Store& store, const std::string& family, const std::string& node,
                                        int64_t now_ms) {
  const bool arena = family == "arena";
  std::vector<promql::Series> out;
  for (auto& s : gpu_series(store, arena ? "arena" : "dcgm", now_ms - kScrapeIntervalMs + 1, now_ms, now_ms)) {
    if (s.labels[arena ? "node_name" : "Hostname"] != node || s.points.empty()) continue;
    s.labels.erase("instance");
    s.labels.erase("job");
    if (!arena) {
      const std::string gpu = s.labels["gpu"];
      s.labels["pci_bus_id"] = "00000000:" + std::string(gpu.size() < 2 ? "0" : "") + gpu + ":00.0";
      s.labels["DCGM_FI_DRIVER_VERSION"] = kDriverVersion;
      if (family == "dcgm-before-3.1.6") s.labels["Hostname"] = exporter_pod(node);
    }
    s.points.erase(s.points.begin(), s.points.end() - 1);
    out.push_back(std::move(s));
  }
  return out;
}

std::string label_text(const promql::Labels& labels, bool arena) {
  static const std::vector<std::string> dcgm_order = {"gpu",           "UUID",     "pci_bus_id", "device",
                                                      "modelName",     "GPU_I_PROFILE", "GPU_I_ID", "Hostname"};
  std::string out;
  auto add = [&out](const std::string& k, const std::string& v) {
    out += (out.empty() ? "" : ",") + k + "=\"" + escape_value(v) + "\"";
  };
  if (!arena)
    for (const auto& k : dcgm_order)
      if (auto it = labels.find(k); it != labels.end()) add(k, it->second);
  for (const auto& [k, v] : labels) {
    if (k == "__name__") continue;
    bool placed = false;
    if (!arena)
      for (const auto& o : dcgm_order) placed = placed || o == k;
    if (!placed) add(k, v);
  }
  return out;
}

}  // namespace

std::optional<std::string> gpu_exposition(const Store& store, const std::string& family, const std::string& node,
                                          int64_t now_ms) {
  if (!known_family(family)) return std::nullopt;
  const auto series = node_series(store, family, node, now_ms);
  if (series.empty()) return std::nullopt;
  const bool arena = family == "arena";
  std::string out;
  for (const auto& c : arena ? arena_counters() : dcgm_counters()) {
    std::string lines;
    for (const auto& s : series)
      if (s.labels.at("__name__") == c.name)
        lines += std::string(c.name) + "{" + label_text(s.labels, arena) + "} " + number(s.points.back().v) + "\n";
    if (lines.empty()) continue;
    if (*c.help) out += "# HELP " + std::string(c.name) + " " + c.help + "\n";
    out += "# TYPE " + std::string(c.name) + " gauge\n" + lines;
  }
  return out;
}

json gpu_exporter_targets(const Store& store, const std::string& family, const std::string& address) {
  json out = json::array();
  const ResourceType* nodes = store.find("", "v1", "nodes");
  if (!nodes || !known_family(family)) return out;
  const bool arena = family == "arena";
  for (const auto& n : store.list(*nodes, "").items) {
    const json capacity = n->value("status", json::object()).value("capacity", json::object());
    if (!capacity.contains("nvidia.com/gpu") && !capacity.contains("aliyun.com/gpu")) continue;
    const std::string node = meta_name(*n);
    const std::string pod = exporter_pod(node);
    // prometheus-operator's ServiceMonitor target labels (pkg/prometheus/promcfg.go): the
    // exporter pod's namespace, pod, container, its Service and endpoint port; job = Service.
    json labels = {{"__metrics_path__", "/kubesim/exporters/" + family + "/" + node + "/metrics"}};
    if (arena) {
      labels.update({{"instance", node_ip(store, node) + ":9445"},
                     {"namespace", "arena-system"},
                     {"pod", "ack-prometheus-gpu-exporter-" + pod.substr(pod.size() - 5)},
                     {"container", "gpu-exporter"},
                     {"service", "node-gpu-exporter"},
                     {"endpoint", "http-metrics"},
                     {"job", "node-gpu-exporter"}});
    } else {
      labels.update({{"instance", exporter_ip(store, node) + ":9400"},
                     {"namespace", "gpu-operator"},
                     {"pod", pod},
                     {"container", "nvidia-dcgm-exporter"},
                     {"service", "nvidia-dcgm-exporter"},
                     {"endpoint", "gpu-metrics"},
                     {"job", "nvidia-dcgm-exporter"}});
    }
    out.push_back({{"targets", json::array({address})}, {"labels", labels}});
  }
  return out;
}

void serve_gpu_exporters(const Store& store, int64_t now_ms, const httplib::Request& req, httplib::Response& res) {
  const std::string prefix = "/kubesim/exporters/";
  std::vector<std::string> segs;
  for (size_t at = prefix.size(); at <= req.path.size();) {
    const size_t slash = req.path.find('/', at);
    segs.push_back(req.path.substr(at, slash == std::string::npos ? std::string::npos : slash - at));
    if (slash == std::string::npos) break;
    at = slash + 1;
  }
  const bool targets = segs.size() == 2 && segs[1] == "targets";
  const bool metrics = segs.size() == 3 && segs[2] == "metrics" && !segs[1].empty();
  if (segs.empty() || !known_family(segs[0]) || (!targets && !metrics)) {
    res.status = 404;
    res.set_content("404 page not found\n", "text/plain; charset=utf-8");
    return;
  }
  if (req.method != "GET") {
    res.status = 405;
    res.set_content("Method Not Allowed\n", "text/plain; charset=utf-8");
    return;
  }
  if (targets) {
    std::string host = req.get_header_value("Host");
    res.set_content(gpu_exporter_targets(store, segs[0], host).dump(), "application/json");
    return;
  }
  auto text = gpu_exposition(store, segs[0], segs[1], now_ms);
  if (!text) {
    res.status = 404;
    res.set_content("no GPU exporter on node \"" + segs[1] + "\"\n", "text/plain; charset=utf-8");
    return;
  }
  // The text format's content type (prometheus/common expfmt FmtText).
  res.set_content(*text, "text/plain; version=0.0.4; charset=utf-8");
}

}  // namespace kubesim
