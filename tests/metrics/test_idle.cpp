// Idle GPUs: under the threshold over the whole window, for pods old enough.
#include <catch2/catch.hpp>

#include "metrics/idle.h"

using namespace trainctl::metrics;
using namespace std::chrono_literals;

namespace {

GpuMetric gpu(const std::string& ns, const std::string& pod, const std::string& index, double max_util) {
  GpuMetric g;
  g.ns = ns;
  g.pod = pod;
  g.gpu = index;
  g.utilization = max_util;
  return g;
}

}  // namespace

TEST_CASE("a GPU is idle when its highest utilisation over the window stays under the threshold",
          "[metrics][idle]") {
  const auto now = std::chrono::system_clock::time_point(1700000000s);
  const std::vector<GpuMetric> gpus = {gpu("team-a", "job-worker-0", "0", 0.0), gpu("team-a", "job-worker-0", "1", 4.9),
                                       gpu("team-a", "job-worker-0", "2", 5.0), gpu("team-b", "job-worker-0", "0", 0.0),
                                       gpu("", "job-worker-0", "3", 1.0)};
  const IdleRule rule;  // 10 minutes, 5 %
  // GPUs 0 and 1 are idle, 2 reached the threshold; team-b's pod is another pod; a series
  // without a namespace label (Arena's exporter) matches by name.
  auto r = idle_gpus_of(gpus, "team-a", "job-worker-0", now - 11min, now, rule);
  CHECK(r.held == 4);
  CHECK(r.idle == 3);
  CHECK(*r.highest == 4.9);
  // A pod younger than the window is not idle yet.
  r = idle_gpus_of(gpus, "team-a", "job-worker-0", now - 9min, now, rule);
  CHECK(r.held == 4);
  CHECK(r.idle == 0);
  CHECK_FALSE(r.highest.has_value());
  // Under 1 %: GPU 0 only (GPU 3's 1.0 % is not under it).
  CHECK(idle_gpus_of(gpus, "team-a", "job-worker-0", now - 1h, now, IdleRule{600s, 1.0}).idle == 1);
}

TEST_CASE("a pod's age is measured on Prometheus's clock when the sample has a time", "[metrics][idle]") {
  const auto created = std::chrono::system_clock::time_point(1700000000s);
  GpuMetric g = gpu("ns", "p", "0", 0.0);
  g.sampled_at = 1700000000.0 + 700;  // evaluated 11m40s after the pod was made
  // The client's clock says only 1 minute passed: Prometheus's wins.
  CHECK(idle_gpus_of({g}, "ns", "p", created, created + 1min, IdleRule{}).idle == 1);
  g.sampled_at = 1700000000.0 + 300;
  CHECK(idle_gpus_of({g}, "ns", "p", created, created + 1h, IdleRule{}).idle == 0);
}
