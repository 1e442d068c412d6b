// GPU accounting as Arena does it (pkg/training/gpu.go): what a pod asks for, and whether
// it holds its GPUs now.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

namespace trainctl::jobs {

// Σ over the pod's containers of limits nvidia.com/gpu (or the old
// alpha.kubernetes.io/nvidia-gpu when that is absent).
long long pod_nvidia_gpus(const nlohmann::json& pod);
// nvidia.com/gpu plus aliyun.com/gpu (topology-aware placement): an instance's GPUs.
long long pod_gpus(const nlohmann::json& pod);
// The same sums over a pod template's (or pod spec's) containers.
long long spec_gpus(const nlohmann::json& pod_spec);
// Whether the pod ended (phase Succeeded or Failed).
bool pod_completed(const nlohmann::json& pod);

// Quantities as the API writes them: "2", 2, "1k"... only whole numbers are meaningful for
// extended resources; anything unparsable is 0.
long long parse_count(const nlohmann::json& quantity);

}  // namespace trainctl::jobs
