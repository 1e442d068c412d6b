// PromQL of the GPU metrics (gpu_queries.h). `A or B` keeps B's series whose labels other than
// __name__ are not in A (Prometheus promql/engine.go VectorOr, labels.HashWithoutLabels), so
// the label variants union cleanly; functions over a range drop __name__ (promql/functions.go),
// so each window arm puts its metric's name back, and the kWindowMaxLabel, with label_replace.
#include "metrics/gpu_queries.h"

#include <string_view>

#include "metrics/gpu_metrics.h"

namespace trainctl::metrics {

namespace {

const char* const kDcgmMetrics =
    "DCGM_FI_DEV_GPU_UTIL|DCGM_FI_PROF_GR_ENGINE_ACTIVE|DCGM_FI_DEV_FB_USED|DCGM_FI_DEV_FB_FREE|DCGM_FI_DEV_FB_RESERVED";
const char* const kArenaMetrics = "nvidia_gpu_duty_cycle|nvidia_gpu_memory_used_bytes|nvidia_gpu_memory_total_bytes";
// The utilisation metrics of each family, whose maximum over the window decides idleness.
const std::vector<const char*> kDcgmUtilization = {"DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_PROF_GR_ENGINE_ACTIVE"};
const std::vector<const char*> kArenaUtilization = {"nvidia_gpu_duty_cycle"};

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string alternatives(const std::vector<std::string>& literals) {
  std::string out;
  for (const auto& l : literals) out += (out.empty() ? "" : "|") + regex_escape(l);
  return out;
}

// One label variant: the matchers that find a family's series of the pods or nodes wanted.
struct Arm {
  bool arena = false;
  std::string matchers;  // without __name__; empty for every series of the family
};

std::string join_or(const std::string& a, const std::string& b) { return a.empty() ? b : a + " or " + b; }

std::string window_max(const char* metric, const std::string& matchers, long long window_seconds) {
  const std::string selector =
      matchers.empty() ? std::string(metric) : std::string(metric) + "{" + matchers + "}";
  return std::string("label_replace(label_replace(max_over_time(") + selector + "[" +
         std::to_string(window_seconds) + "s]), \"__name__\", \"" + metric + "\", \"__name__\", \".*\"), \"" +
         kWindowMaxLabel + "\", \"" + std::to_string(window_seconds) + "s\", \"__name__\", \".*\")";
}

std::string query_of(const std::vector<Arm>& arms, long long window_seconds) {
  std::string out;
  for (const auto& a : arms)
    out = join_or(out, std::string("{__name__=~\"") + (a.arena ? kArenaMetrics : kDcgmMetrics) + "\", " +
                           a.matchers + "}");
  if (window_seconds <= 0) return out;
  for (const auto& a : arms)
    for (const char* metric : a.arena ? kArenaUtilization : kDcgmUtilization)
      out = join_or(out, window_max(metric, a.matchers, window_seconds));
  return out;
}

}  // namespace

std::string regex_escape(const std::string& literal) {
  std::string out;
  for (char c : literal) {
    if (std::string_view("\\.+*?()|[]{}^$").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

namespace {

std::vector<Arm> job_arms(const std::string& ns, const std::vector<std::string>& pods) {
  const std::string n = quoted(ns);
  const std::string p = quoted(alternatives(pods));
  return {{false, "exported_namespace=" + n + ", exported_pod=~" + p},
          {false, "namespace=" + n + ", pod=~" + p},
          {false, "pod_namespace=" + n + ", pod_name=~" + p},
          {true, "pod_name=~" + p}};
}

std::vector<Arm> node_arms(const std::vector<std::string>& nodes) {
  const std::string h = nodes.empty() ? "\".+\"" : quoted(alternatives(nodes));
  return {{false, "Hostname=~" + h}, {false, "hostname=~" + h}, {true, "node_name=~" + h}};
}

// The utilisation series alone, for a range query: selectors keep __name__, so GPU_UTIL and
// GR_ENGINE_ACTIVE of one GPU both stay, and gpu_history.h picks one.
std::string utilization_query_of(const std::vector<Arm>& arms) {
  std::string out;
  for (const auto& a : arms) {
    std::string names;
    for (const char* m : a.arena ? kArenaUtilization : kDcgmUtilization) names += (names.empty() ? "" : "|") + std::string(m);
    out = join_or(out, "{__name__=~\"" + names + "\", " + a.matchers + "}");
  }
  return out;
}

}  // namespace

std::string job_gpu_query(const std::string& ns, const std::vector<std::string>& pods, long long window_seconds) {
  return query_of(job_arms(ns, pods), window_seconds);
}

std::string node_gpu_query(const std::vector<std::string>& nodes, long long window_seconds) {
  return query_of(node_arms(nodes), window_seconds);
}

std::string job_utilization_query(const std::string& ns, const std::vector<std::string>& pods) {
  return utilization_query_of(job_arms(ns, pods));
}

std::string node_utilization_query(const std::vector<std::string>& nodes) {
  return utilization_query_of(node_arms(nodes));
}

std::string max_utilization_query(long long window_seconds) {
  std::string out;
  for (const char* metric : kDcgmUtilization) out = join_or(out, window_max(metric, "", window_seconds));
  for (const char* metric : kArenaUtilization) out = join_or(out, window_max(metric, "", window_seconds));
  return out;
}

}  // namespace trainctl::metrics
