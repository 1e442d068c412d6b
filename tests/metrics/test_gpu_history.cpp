// Utilisation over a window from a range query's matrix (gpu_history.h): the step grid, which
// series a GPU's columns come from, min/mean/max and how long the GPU has been under the
// threshold; and the range query's URL (source.h).
#include <catch2/catch.hpp>

#include "metrics/gpu_history.h"
#include "metrics/gpu_queries.h"
#include "metrics/source.h"
#include "support/fake_client.h"

using namespace trainctl;
using namespace trainctl::metrics;
using std::chrono::seconds;
using trainctl::testing::FakeClient;

namespace {

using Clock = std::chrono::system_clock;
const Clock::time_point kT0{seconds(1'700'000'000)};

Series series(std::map<std::string, std::string> labels, std::vector<std::pair<double, double>> points) {
  Series s;
  s.labels = std::move(labels);
  s.points = std::move(points);
  return s;
}

std::map<std::string, std::string> dcgm(const char* name, const std::string& gpu, const std::string& pod) {
  return {{"__name__", name}, {"gpu", gpu}, {"Hostname", "gpu-a"}, {"exported_pod", pod}, {"exported_namespace", "default"}};
}

}  // namespace

TEST_CASE("history window: about 30 whole-second steps ending now", "[metrics][history]") {
  const auto w = history_window(kT0 + std::chrono::milliseconds(700), seconds(600));
  CHECK(w.step == seconds(20));
  CHECK(w.end == kT0);
  CHECK(w.start == kT0 - seconds(600));
  CHECK(w.columns() == 31);
  const auto small = history_window(kT0, seconds(60), 120);
  CHECK(small.step == seconds(1));
  CHECK(small.columns() == 61);
}

TEST_CASE("history: one row per GPU, columns on the step grid, min/mean/max, under the threshold since",
          "[metrics][history]") {
  HistoryWindow w{kT0, kT0 + seconds(8), seconds(2)};  // columns at 0 2 4 6 8
  const double t = 1'700'000'000;
  const auto h = gpu_history(
      {series(dcgm("DCGM_FI_DEV_GPU_UTIL", "0", "p-0"), {{t + 2, 90}, {t + 4, 80}, {t + 6, 3}, {t + 8.4, 1}}),
       series(dcgm("DCGM_FI_DEV_GPU_UTIL", "1", "p-0"), {{t, 2}, {t + 2, 0}, {t + 4, 0}, {t + 6, 0}, {t + 8, 0}}),
       // GR_ENGINE_ACTIVE of GPU 0 too (DCP counters on): GPU_UTIL is what a whole GPU reads.
       series(dcgm("DCGM_FI_PROF_GR_ENGINE_ACTIVE", "0", "p-0"), {{t + 2, 0.5}}),
       // A MIG device has only GR_ENGINE_ACTIVE, a ratio.
       series([] { auto l = dcgm("DCGM_FI_PROF_GR_ENGINE_ACTIVE", "1", "p-1"); l["GPU_I_ID"] = "3"; return l; }(),
              {{t + 8, 0.25}})},
      w, 5.0);
  REQUIRE(h.gpus.size() == 3);
  const GpuHistory& a = h.gpus[0];
  CHECK(a.gpu.gpu == "0");
  CHECK(a.gpu.pod == "p-0");
  REQUIRE(a.columns.size() == 5);
  CHECK_FALSE(a.columns[0]);  // no sample before the pod's first scrape
  CHECK(a.columns[1] == 90.0);
  CHECK(a.columns[4] == 1.0);  // 8.4 s is nearest to the 8 s column
  CHECK(a.min == 1.0);
  CHECK(a.max == 90.0);
  CHECK(*a.mean == Approx((90.0 + 80 + 3 + 1) / 4));
  REQUIRE(a.under_since);
  CHECK(*a.under_since == kT0 + seconds(6));
  CHECK_FALSE(a.since_window_start);
  const GpuHistory& b = h.gpus[1];
  CHECK(b.gpu.gpu == "1");
  REQUIRE(b.under_since);
  CHECK(*b.under_since == kT0);
  CHECK(b.since_window_start);
  const GpuHistory& mig = h.gpus[2];
  CHECK(mig.gpu.mig_instance == "3");
  CHECK(mig.columns[4] == 25.0);
  CHECK_FALSE(mig.under_since);  // the last sample is above the threshold
}

TEST_CASE("range queries: the utilisation series of every label variant, through query_range", "[metrics][history]") {
  CHECK(job_utilization_query("default", {"p-0"}) ==
        "{__name__=~\"DCGM_FI_DEV_GPU_UTIL|DCGM_FI_PROF_GR_ENGINE_ACTIVE\", exported_namespace=\"default\", "
        "exported_pod=~\"p-0\"} or {__name__=~\"DCGM_FI_DEV_GPU_UTIL|DCGM_FI_PROF_GR_ENGINE_ACTIVE\", "
        "namespace=\"default\", pod=~\"p-0\"} or {__name__=~\"DCGM_FI_DEV_GPU_UTIL|DCGM_FI_PROF_GR_ENGINE_ACTIVE\", "
        "pod_namespace=\"default\", pod_name=~\"p-0\"} or {__name__=~\"nvidia_gpu_duty_cycle\", pod_name=~\"p-0\"}");
  CHECK(node_utilization_query({}) ==
        "{__name__=~\"DCGM_FI_DEV_GPU_UTIL|DCGM_FI_PROF_GR_ENGINE_ACTIVE\", Hostname=~\".+\"} or "
        "{__name__=~\"DCGM_FI_DEV_GPU_UTIL|DCGM_FI_PROF_GR_ENGINE_ACTIVE\", hostname=~\".+\"} or "
        "{__name__=~\"nvidia_gpu_duty_cycle\", node_name=~\".+\"}");
  auto api = std::make_shared<FakeClient>();
  const std::string proxy = "/api/v1/namespaces/monitoring/services/prometheus-server:9090/proxy";
  api->on_get(proxy + "/api/v1/query_range?query=up&start=1700000000&end=1700000600&step=20&timeout=5s",
              {{"status", "success"},
               {"data",
                {{"resultType", "matrix"},
                 {"result", nlohmann::json::array({{{"metric", {{"job", "p"}}},
                                                    {"values", {{1700000000, "1"}, {1700000020, "0"}}}}})}}}});
  MetricsSource source(api, proxy, "Prometheus", seconds(5));
  const auto s = source.query_range("up", kT0, kT0 + seconds(600), seconds(20));
  REQUIRE(s.size() == 1);
  REQUIRE(s[0].points.size() == 2);
  CHECK(s[0].points[1] == std::pair<double, double>(1700000020, 0));
  api->verify();
}
