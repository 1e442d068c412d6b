// GPU series of the simulated exporters (gpu_series.h). Label sets after docs/metrics.md:
// dcgm-exporter's gpuMetricsFormat (gpu, UUID, device, modelName, Hostname; pod, namespace,
// container with --kubernetes), the same after Prometheus' honor_labels: false relabelling
// (exported_pod, ...), and Alibaba's GPU exporter as Arena reads it.
#include "kubesim/gpu_series.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/rfc3339.h"
#include "kubesim/controllers/context.h"
#include "kubesim/store.h"

namespace kubesim {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;
constexpr int64_t kMaxScrapes = 11'000;

uint64_t fnv1a(const std::string& s, uint64_t h = 1469598103934665603ULL) {
  for (char c : s) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ULL;
  }
  return h;
}

std::string gpu_uuid(const std::string& node, int index) {
  const std::string key = node + "/gpu/" + std::to_string(index);
  char hex[33];
  std::snprintf(hex, sizeof hex, "%016llx%016llx", static_cast<unsigned long long>(fnv1a(key)),
                static_cast<unsigned long long>(fnv1a(key + "#")));
  const std::string h = hex;
  return "GPU-" + h.substr(0, 8) + "-" + h.substr(8, 4) + "-" + h.substr(12, 4) + "-" + h.substr(16, 4) +
         "-" + h.substr(20, 12);
}

std::string node_ip(const json& node) {
  for (const auto& a : node.value("status", json::object()).value("addresses", json::array()))
    if (a.value("type", "") == "InternalIP") return a.value("address", "");
  return meta_name(node);
}

int64_t pod_gpus(const json& pod, const std::string& resource, std::string& container) {
  int64_t total = 0;
  for (const auto& c : pod.value("spec", json::object()).value("containers", json::array())) {
    const json res = c.value("resources", json::object());
    json q = res.value("limits", json::object()).value(resource, json());
    if (q.is_null()) q = res.value("requests", json::object()).value(resource, json());
    if (q.is_null()) continue;
    const int64_t n = parse_quantity(q);
    if (n > 0 && container.empty()) container = c.value("name", "");
    total += std::max<int64_t>(n, 0);
  }
  return total;
}

// When the pod's containers started running (the earliest), or -1 when it is not Running.
int64_t running_since_ms(const json& pod) {
  const json st = pod.value("status", json::object());
  if (st.value("phase", "") != "Running") return -1;
  int64_t since = -1;
  for (const auto& cs : st.value("containerStatuses", json::array())) {
    const std::string at =
        cs.value("state", json::object()).value("running", json::object()).value("startedAt", "");
    auto t = trainctl::parse_rfc3339(at);
    if (!t) continue;
    const int64_t ms = std::chrono::duration_cast<std::chrono::milliseconds>(t->time_since_epoch()).count();
    if (since < 0 || ms < since) since = ms;
  }
  if (since < 0) {
    auto t = trainctl::parse_rfc3339(st.value("startTime", ""));
    if (t) since = std::chrono::duration_cast<std::chrono::milliseconds>(t->time_since_epoch()).count();
  }
  return since;
}

struct Holder {
  const json* pod = nullptr;
  std::string container;
  int64_t since_ms = -1;
};

struct GpuInfo {
  std::string node, ip, model, uuid;
  int index = 0;  // the physical GPU
  double total_mib = kDefaultGpuMemoryMiB;
  // A MIG instance (MIG strategy single): its profile (1g.5gb), GPU instance ID and the
  // node's resource unit it is (what the utilisation profile is seeded with).
  std::string mig_profile;
  int mig_id = 0;
  int unit = 0;
};

// MIG with GPU feature discovery's `single` strategy (k8s-device-plugin
// docs/gpu-feature-discovery/README.md): every nvidia.com/gpu of the node is a MIG device,
// nvidia.com/gpu.product is the model with "-MIG-<profile>" appended, nvidia.com/gpu.memory
// the memory of one device (MB) and nvidia.com/gpu.slices.gi its GPU instance slices, of the
// seven an A100 or H100 has.
struct MigLayout {
  std::string profile, model;
  int per_gpu = 0;  // 0: not MIG
};

MigLayout mig_layout(const json& node) {
  MigLayout m;
  if (label(node, "nvidia.com/mig.strategy") != "single") return m;
  const std::string product = label(node, "nvidia.com/gpu.product");
  const auto at = product.find("-MIG-");
  if (at == std::string::npos) return m;
  m.profile = product.substr(at + 5);
  m.model = product.substr(0, at);
  const int slices = std::max(1, std::atoi(label(node, "nvidia.com/gpu.slices.gi").c_str()));
  m.per_gpu = std::max(1, 7 / slices);
  return m;
}

// Appends the three series of one GPU for the family.
void add_gpu(std::vector<promql::Series>& out, const std::string& exporter, const GpuInfo& g, const Holder& h,
             const std::vector<int64_t>& times) {
  const bool held = h.pod && h.since_ms >= 0;
  const std::string ns = held ? meta_ns(*h.pod) : "", pod = held ? meta_name(*h.pod) : "";
  double used_mib = 0;
  std::string profile;
  if (held) {
    profile = annotation(*h.pod, kGpuProfileAnnotation);
    const std::string mem = annotation(*h.pod, kGpuMemoryAnnotation);
    used_mib = mem.empty() ? std::round(g.total_mib * 0.6) : std::round(parse_quantity(json(mem)) / kMiB);
    used_mib = std::clamp(used_mib, 0.0, g.total_mib);
  }
  promql::Labels base;
  const std::string index = std::to_string(g.index);
  std::vector<std::pair<std::string, int>> metrics;  // name, 0 util / 1 used / 2 free or total
  if (exporter == "arena") {
    base = {{"node_name", g.node},          {"minor_number", index},      {"uuid", g.uuid},
            {"allocate_mode", "exclusive"}, {"instance", g.ip + ":9445"}, {"job", "node-gpu-exporter"}};
    if (held) {
      base["pod_name"] = pod;
      base["namespace_name"] = ns;
    }
    metrics = {{"nvidia_gpu_duty_cycle", 0},
               {"nvidia_gpu_memory_used_bytes", 1},
               {"nvidia_gpu_memory_total_bytes", 2}};
  } else {
    base = {{"gpu", index},
            {"UUID", g.uuid},
            {"device", "nvidia" + index},
            {"modelName", g.model},
            {"Hostname", g.node},
            {"instance", g.ip + ":9400"},
            {"job", "nvidia-dcgm-exporter"}};
    // dcgm-exporter internal/pkg/rendermetrics/render_metrics.go: a MIG device's series carry
    // its parent GPU's gpu/UUID/device and GPU_I_PROFILE, GPU_I_ID.
    if (!g.mig_profile.empty()) {
      base["GPU_I_PROFILE"] = g.mig_profile;
      base["GPU_I_ID"] = std::to_string(g.mig_id);
    }
    const bool exported = exporter == "dcgm-exported";
    const std::string prefix = exported ? "exported_" : "";
    if (exported) {
      base["pod"] = exporter_pod(g.node);
      base["namespace"] = "gpu-operator";
      base["container"] = "nvidia-dcgm-exporter";
      base["service"] = "nvidia-dcgm-exporter";
      base["endpoint"] = "gpu-metrics";
    }
    if (held) {
      base[prefix + "pod"] = pod;
      base[prefix + "namespace"] = ns;
      base[prefix + "container"] = h.container;
    }
    // NVML reports no GPU_UTIL for a MIG device; DCP's GR_ENGINE_ACTIVE (a ratio) it does.
    if (g.mig_profile.empty())
      metrics = {{"DCGM_FI_DEV_GPU_UTIL", 0}, {"DCGM_FI_DEV_FB_USED", 1}, {"DCGM_FI_DEV_FB_FREE", 2}};
    else
      metrics = {{"DCGM_FI_PROF_GR_ENGINE_ACTIVE", 3}, {"DCGM_FI_DEV_FB_USED", 1}, {"DCGM_FI_DEV_FB_FREE", 2}};
  }
  const bool bytes = exporter == "arena";
  for (const auto& [name, which] : metrics) {
    promql::Series s;
    s.labels = base;
    s.labels["__name__"] = name;
    for (int64_t t : times) {
      double v = 0;
      if (which == 0 || which == 3)
        v = held ? gpu_utilisation(profile, ns + "/" + pod, g.unit, t) / (which == 3 ? 100.0 : 1.0) : 0;
      else if (which == 1)
        v = bytes ? used_mib * kMiB : used_mib;
      else
        v = bytes ? g.total_mib * kMiB : g.total_mib - used_mib;
      s.points.push_back({t, v});
    }
    if (!s.points.empty()) out.push_back(std::move(s));
  }
}

// Scrape times in [from, to]: every 15 s from `first` on, for at most the last 11,000 scrapes
// (about 45 hours), so that a long range does not build millions of samples.
std::vector<int64_t> scrape_times(int64_t first, int64_t from, int64_t to) {
  std::vector<int64_t> out;
  from = std::max(from, to - kMaxScrapes * kScrapeIntervalMs);
  int64_t t = first;
  if (from > first)
    t = first + (from - first + kScrapeIntervalMs - 1) / kScrapeIntervalMs * kScrapeIntervalMs;
  for (; t <= to; t += kScrapeIntervalMs) out.push_back(t);
  return out;
}

}  // namespace

std::string exporter_pod(const std::string& node) {
  static const char alphabet[] = "bcdfghjklmnpqrstvwxz2456789";
  uint64_t h = fnv1a(node + "/dcgm-exporter");
  std::string out = "nvidia-dcgm-exporter-";
  for (int i = 0; i < 5; ++i, h /= 27) out += alphabet[h % 27];
  return out;
}

double gpu_utilisation(const std::string& profile, const std::string& pod_key, int gpu, int64_t t_ms) {
  if (profile == "idle") return 0;
  if (!profile.empty() && profile != "busy") {
    char* end = nullptr;
    const double v = std::strtod(profile.c_str(), &end);
    if (end && *end == '\0' && end != profile.c_str()) return std::clamp(v, 0.0, 100.0);
  }
  const int64_t minute = t_ms >= 0 ? t_ms / 60'000 : (t_ms - 59'999) / 60'000;
  return 70 +
         static_cast<double>(fnv1a(pod_key + "/" + std::to_string(gpu) + "/" + std::to_string(minute)) % 30);
}

std::vector<promql::Series> gpu_series(const Store& store, const std::string& exporter, int64_t from_ms,
                                       int64_t to_ms, int64_t now_ms) {
  std::vector<promql::Series> out;
  const ResourceType* nodes_rt = store.find("", "v1", "nodes");
  const ResourceType* pods_rt = store.find("", "v1", "pods");
  if (!nodes_rt || !pods_rt) return out;
  const int64_t to = std::min(to_ms, now_ms);
  if (to < from_ms) return out;
  std::map<std::string, std::vector<std::shared_ptr<const json>>> by_node;
  for (const auto& p : store.list(*pods_rt, "").items) {
    const std::string node = p->value("spec", json::object()).value("nodeName", "");
    const std::string phase = p->value("status", json::object()).value("phase", "");
    if (!node.empty() && phase != "Succeeded" && phase != "Failed") by_node[node].push_back(p);
  }
  for (const auto& n : store.list(*nodes_rt, "").items) {
    const json capacity = n->value("status", json::object()).value("capacity", json::object());
    std::string resource;
    int64_t gpus = 0;
    for (const char* r : {"nvidia.com/gpu", "aliyun.com/gpu"}) {
      if (!capacity.contains(r)) continue;
      resource = r;
      gpus = parse_quantity(capacity[r]);
      break;
    }
    if (gpus <= 0) continue;
    GpuInfo g;
    g.node = meta_name(*n);
    g.ip = node_ip(*n);
    const std::string mem = label(*n, "nvidia.com/gpu.memory");  // MiB, as GPU feature discovery
    if (!mem.empty()) g.total_mib = std::max(1.0, std::strtod(mem.c_str(), nullptr));
    g.model = label(*n, "nvidia.com/gpu.product");
    if (g.model.empty()) g.model = kDefaultGpuModel;
    const MigLayout mig = exporter == "arena" ? MigLayout{} : mig_layout(*n);
    if (mig.per_gpu > 0) {
      g.model = mig.model;
      g.mig_profile = mig.profile;
    }
    auto& pods = by_node[g.node];
    std::stable_sort(pods.begin(), pods.end(), [](const auto& a, const auto& b) {
      const std::string ta = (*a)["metadata"].value("creationTimestamp", "");
      const std::string tb = (*b)["metadata"].value("creationTimestamp", "");
      return ta != tb ? ta < tb : meta_ns(*a) + "/" + meta_name(*a) < meta_ns(*b) + "/" + meta_name(*b);
    });
    std::vector<Holder> holders(static_cast<size_t>(gpus));
    size_t next = 0;
    for (const auto& p : pods) {
      Holder h{p.get(), "", running_since_ms(*p)};
      const int64_t want = pod_gpus(*p, resource, h.container);
      for (int64_t k = 0; k < want && next < holders.size(); ++k) holders[next++] = h;
    }
    for (int i = 0; i < static_cast<int>(gpus); ++i) {
      g.unit = i;
      g.index = mig.per_gpu > 0 ? i / mig.per_gpu : i;
      g.mig_id = mig.per_gpu > 0 ? i % mig.per_gpu : 0;
      g.uuid = gpu_uuid(g.node, g.index);
      const Holder& h = holders[static_cast<size_t>(i)];
      const bool held = h.pod && h.since_ms >= 0;
      const int64_t first = held ? h.since_ms : (from_ms / kScrapeIntervalMs) * kScrapeIntervalMs;
      add_gpu(out, exporter, g, h, scrape_times(first, from_ms, to));
    }
  }
  return out;
}

}  // namespace kubesim
