// Which pod holds a GPU, as the series name it, checked against the pods that request GPUs.
// A series of a GPU that no pod holds still carries `pod` and `namespace` once Prometheus adds
// its scrape target's labels (prometheus-operator's ServiceMonitor targets; the prometheus
// chart's kubernetes-pods job): they name the exporter's own pod. A held GPU's pod is in
// exported_pod under honor_labels: false and in pod under true (docs/metrics.md section 2), so
// the labels alone cannot tell an exporter pod from a holder; the pods that request GPUs can.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "metrics/gpu_metrics.h"

namespace trainctl::metrics {

// Whether pod `name` of namespace `ns` requests GPUs (ns "" for Arena's series without one:
// a pod of that name in any namespace).
using RequestsGpus = std::function<bool(const std::string& ns, const std::string& name)>;

// Clears the GPU's ns and pod when its pod does not request GPUs: that GPU is free.
void forget_other_pod(GpuMetric& gpu, const RequestsGpus& requests_gpus);

}  // namespace trainctl::metrics
