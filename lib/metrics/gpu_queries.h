// The PromQL trainctl sends for GPU metrics (docs/metrics.md, section 5): one instant query per
// command, every label variant of both exporter families joined with `or`. With an idle
// window, the same query also carries each GPU's highest utilisation over the window.
#pragma once

#include <string>
#include <vector>

namespace trainctl::metrics {

// The GPUs held by `pods` of namespace ns (top job, get -g). Pod names are regex-escaped.
// With window_seconds > 0, arms of max_over_time over that window join the query, each
// labelled kWindowMaxLabel (gpu_metrics.h) so that `or` keeps them beside the instant series.
std::string job_gpu_query(const std::string& ns, const std::vector<std::string>& pods, long long window_seconds = 0);
// The GPUs of `nodes` (all nodes when empty) (top node), with the same window arms.
std::string node_gpu_query(const std::vector<std::string>& nodes, long long window_seconds = 0);

// The utilisation series alone of the same GPUs, for a range query (gpu_history.h): the
// same label variants joined with `or`, no window arms.
std::string job_utilization_query(const std::string& ns, const std::vector<std::string>& pods);
std::string node_utilization_query(const std::vector<std::string>& nodes);

// The highest utilisation of every GPU of the cluster over the last `window_seconds`
// (list --idle): the window arms alone, without a label matcher.
std::string max_utilization_query(long long window_seconds);

// RE2 escaping of a literal for a label matcher =~ (PromQL regexes are RE2, fully anchored).
std::string regex_escape(const std::string& literal);

}  // namespace trainctl::metrics
