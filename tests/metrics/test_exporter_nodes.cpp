// dcgm-exporter before 3.1.6 sets Hostname to os.Hostname(), its own pod's name
// (NVIDIA/dcgm-exporter@3.1.3-3.1.2:pkg/dcgmexporter/gpu_collector.go); 3.1.6-3.1.3 reads
// NODE_NAME first. The node comes from the exporter pod, else from the scrape address.
#include <catch2/catch.hpp>

#include "metrics/exporter_nodes.h"
#include "metrics/gpu_metrics.h"

using namespace trainctl::metrics;

namespace {

Series old_series(const std::string& name, const std::string& hostname, const std::string& instance, double v) {
  Series s;
  s.labels = {{"__name__", name}, {"gpu", "0"}, {"UUID", "GPU-1"}, {"Hostname", hostname}, {"instance", instance}};
  s.points = {{1700000000.0, v}};
  return s;
}

}  // namespace

TEST_CASE("exporter nodes: a Hostname that is the exporter pod's name becomes the pod's node", "[metrics][gpu]") {
  auto gpus = gpu_metrics({old_series("DCGM_FI_DEV_GPU_UTIL", "nvidia-dcgm-exporter-x7k2p", "10.233.0.2:9400", 80),
                           old_series("DCGM_FI_DEV_GPU_UTIL", "nvidia-dcgm-exporter-q9w4z", "10.233.0.3:9400", 20),
                           old_series("DCGM_FI_DEV_GPU_UTIL", "dcgm-exporter-h2m5n", "10.0.0.13:9400", 50),
                           old_series("DCGM_FI_DEV_GPU_UTIL", "gpu-d", "10.0.0.14:9400", 10)});
  REQUIRE(gpus.size() == 4);
  CHECK(gpus[0].instance == "10.0.0.13:9400");
  const std::set<std::string> nodes = {"gpu-a", "gpu-b", "gpu-c", "gpu-d"};
  CHECK(unplaced(gpus[0], nodes));
  CHECK_FALSE(unplaced(gpus[1], nodes));
  ExporterPods pods;
  pods.node_of_pod = {{"nvidia-dcgm-exporter-x7k2p", "gpu-a"}};
  pods.node_of_ip = {{"10.233.0.3", "gpu-b"}};  // by its pod IP: the pod was not listed by name
  const std::map<std::string, std::string> node_ips = {{"10.0.0.13", "gpu-c"}};  // scraped on the node's address
  CHECK(place_on_nodes(gpus, nodes, pods, node_ips) == 3);
  std::map<std::string, double> util;
  for (const auto& g : gpus) util[g.node] = g.utilization.value_or(-1);
  CHECK(util == std::map<std::string, double>{{"gpu-a", 80}, {"gpu-b", 20}, {"gpu-c", 50}, {"gpu-d", 10}});
}

TEST_CASE("exporter nodes: what no pod or address explains stays as it is; Arena's exporter is never moved",
          "[metrics][gpu]") {
  auto gpus = gpu_metrics({old_series("DCGM_FI_DEV_GPU_UTIL", "somewhere", "[fd00::9]:9400", 5)});
  Series arena;
  arena.labels = {{"__name__", "nvidia_gpu_duty_cycle"}, {"node_name", "elsewhere"}, {"minor_number", "0"}};
  arena.points = {{1700000000.0, 7}};
  const auto more = gpu_metrics({arena});
  gpus.insert(gpus.end(), more.begin(), more.end());
  ExporterPods pods;
  pods.node_of_ip = {{"fd00::8", "gpu-a"}};
  CHECK(place_on_nodes(gpus, {"gpu-a"}, pods, {}) == 0);
  CHECK(gpus[0].node == "somewhere");
  CHECK(gpus[1].node == "elsewhere");
  pods.node_of_ip = {{"fd00::9", "gpu-a"}};
  CHECK(place_on_nodes(gpus, {"gpu-a"}, pods, {}) == 1);
  CHECK(gpus[0].node == "gpu-a");
}
