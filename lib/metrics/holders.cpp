#include "metrics/holders.h"

namespace trainctl::metrics {

void forget_other_pod(GpuMetric& gpu, const RequestsGpus& requests_gpus) {
  if (gpu.pod.empty() || requests_gpus(gpu.ns, gpu.pod)) return;
  gpu.pod.clear();
  gpu.ns.clear();
}

}  // namespace trainctl::metrics
