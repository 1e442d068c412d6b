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
  g.max_utilization = max_util;
  return g;
}

}  // namespace

// The pods' creation times, as a command read them.
static PodCreationIndex made(std::initializer_list<std::tuple<std::string, std::string, TimePoint>> pods) {
  PodCreationIndex index;
  for (const auto& [ns, name, at] : pods) index.add(ns, name, at);
  return index;
}

TEST_CASE("a GPU is idle when its highest utilisation over the window stays under the threshold",
          "[metrics][idle]") {
  const auto now = std::chrono::system_clock::time_point(1700000000s);
  std::vector<GpuMetric> gpus = {gpu("team-a", "job-worker-0", "0", 0.0), gpu("team-a", "job-worker-0", "1", 4.9),
                                 gpu("team-a", "job-worker-0", "2", 5.0), gpu("team-b", "job-worker-0", "0", 0.0),
                                 gpu("", "job-worker-0", "3", 1.0)};
  const IdleRule rule;  // 10 minutes, 5 %
  // GPUs 0 and 1 are idle, 2 reached the threshold; team-b's pod is another pod (here not
  // read, so not judged); a series without a namespace label (Arena's exporter) matches by name.
  mark_idle(gpus, made({{"team-a", "job-worker-0", now - 11min}}), now, rule);
  CHECK(gpus[0].idle == true);
  CHECK(gpus[1].idle == true);
  CHECK(gpus[2].idle == false);
  CHECK_FALSE(gpus[3].idle.has_value());
  CHECK(gpus[4].idle == true);
  auto r = idle_gpus_of(gpus, "team-a", "job-worker-0");
  CHECK(r.held == 4);
  CHECK(r.idle == 3);
  CHECK(*r.highest == 4.9);
  // A pod younger than the window is not idle yet.
  mark_idle(gpus, made({{"team-a", "job-worker-0", now - 9min}}), now, rule);
  r = idle_gpus_of(gpus, "team-a", "job-worker-0");
  CHECK(r.held == 4);
  CHECK(r.idle == 0);
  CHECK_FALSE(r.highest.has_value());
  // Under 1 %: GPU 0 only (GPU 3's 1.0 % is not under it).
  mark_idle(gpus, made({{"team-a", "job-worker-0", now - 1h}}), now, IdleRule{600s, 1.0});
  CHECK(idle_gpus_of(gpus, "team-a", "job-worker-0").idle == 1);
}

TEST_CASE("a GPU without a holder or a window maximum is not judged", "[metrics][idle]") {
  const auto now = std::chrono::system_clock::time_point(1700000000s);
  GpuMetric free_gpu = gpu("", "", "0", 0.0);
  GpuMetric no_max = gpu("ns", "p", "1", 0.0);
  no_max.max_utilization.reset();
  no_max.utilization = 0.0;
  std::vector<GpuMetric> gpus = {free_gpu, no_max};
  mark_idle(gpus, made({{"ns", "p", now - 1h}}), now, IdleRule{});
  CHECK_FALSE(gpus[0].idle.has_value());
  CHECK_FALSE(gpus[1].idle.has_value());
  CHECK(idle_gpus_of(gpus, "ns", "p").held == 0);
  CHECK(describe(IdleRule{1800s, 2.5}) == "under 2.5% for the last 30m");
}

TEST_CASE("a pod's age is measured on Prometheus's clock when the sample has a time", "[metrics][idle]") {
  const auto created = std::chrono::system_clock::time_point(1700000000s);
  std::vector<GpuMetric> g = {gpu("ns", "p", "0", 0.0)};
  g[0].sampled_at = 1700000000.0 + 700;  // evaluated 11m40s after the pod was made
  // The client's clock says only 1 minute passed: Prometheus's wins.
  mark_idle(g, made({{"ns", "p", created}}), created + 1min, IdleRule{});
  CHECK(g[0].idle == true);
  g[0].sampled_at = 1700000000.0 + 300;
  mark_idle(g, made({{"ns", "p", created}}), created + 1h, IdleRule{});
  CHECK(g[0].idle == false);
}
