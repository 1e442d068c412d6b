// kubesim's GPU exporter endpoints (gpu_exporter.h): dcgm-exporter's exposition (its
// template's label order, HELP and TYPE from its counters CSV, no timestamps), the shape
// before 3.1.6 (Hostname = the exporter pod), Arena's exporter, MIG devices, and the targets
// of Prometheus' HTTP service discovery. A real Prometheus parses them in
// tests/integration/prometheus_real*.sh.
#include <fstream>
#include <regex>

#include "kubesim/gpu_exporter.h"
#include "kubesim/gpu_series.h"
#include "support/paths.h"
#include "test_controllers_fixture.h"

using namespace kubesim;
using namespace kubesim::testing;

namespace {

json profiled_pod(const std::string& name, int gpus) {
  return {{"apiVersion", "v1"},
          {"kind", "Pod"},
          {"metadata",
           {{"name", name}, {"namespace", "default"}, {"annotations", {{"kubesim.trainctl.io/gpu-profile", "42"}}}}},
          {"spec", {{"restartPolicy", "Never"}, {"containers", json::array({gpu_container("trainer", "sleep 1", gpus)})}}}};
}

int64_t sim_ms(SimFixture& f) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(f.sim->now().time_since_epoch()).count();
}

std::vector<std::string> exposition_lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

}  // namespace

TEST_CASE("dcgm exposition: dcgm-exporter's layout, the pod's labels, the values at now", "[kubesim][gpu_exporter]") {
  SimFixture f;
  f.create("", "v1", "pods", profiled_pod("train-0", 1));
  f.step(std::chrono::seconds(5));
  const std::string node = f.pod("train-0")["spec"]["nodeName"];
  const auto text = gpu_exposition(f.store, "dcgm", node, sim_ms(f));
  REQUIRE(text);
  const auto lines = exposition_lines(*text);
  REQUIRE(lines.size() == 3 * (2 + 2));  // 3 counters: HELP, TYPE, two GPUs
  CHECK(lines[0] == "# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (in %).");
  CHECK(lines[1] == "# TYPE DCGM_FI_DEV_GPU_UTIL gauge");
  CHECK(lines[4] == "# HELP DCGM_FI_DEV_FB_FREE Framebuffer memory free (in MiB).");
  CHECK(lines[8] == "# HELP DCGM_FI_DEV_FB_USED Framebuffer memory used (in MiB).");
  // The first GPU is the pod's: gpu, UUID, pci_bus_id, device, modelName, Hostname, then the
  // CSV's label field and the pod attributes in key order; no instance or job (target labels).
  const std::regex held(
      R"re(DCGM_FI_DEV_GPU_UTIL\{gpu="0",UUID="GPU-[0-9a-f-]{36}",pci_bus_id="00000000:00:00\.0",device="nvidia0",)re"
      R"re(modelName="NVIDIA A100-SXM4-40GB",Hostname="([a-z0-9.-]+)",DCGM_FI_DRIVER_VERSION="[0-9.]+",)re"
      R"re(container="trainer",namespace="default",pod="train-0"\} 42)re");
  std::smatch m;
  REQUIRE(std::regex_match(lines[2], m, held));
  CHECK(m[1] == node);
  // The free GPU: no pod labels, 0 %.
  CHECK(std::regex_match(lines[3], std::regex(R"re(DCGM_FI_DEV_GPU_UTIL\{gpu="1",.*,DCGM_FI_DRIVER_VERSION="[0-9.]+"\} 0)re")));
  CHECK(lines[6].find("pod=\"train-0\"} 6554") != std::string::npos);  // 16384 - 60 %
  CHECK(lines[10].find("pod=\"train-0\"} 9830") != std::string::npos);
  // Before 3.1.6 the exporter's hostname is its own pod's name.
  const auto old = gpu_exposition(f.store, "dcgm-before-3.1.6", node, sim_ms(f));
  REQUIRE(old);
  CHECK(old->find("Hostname=\"" + exporter_pod(node) + "\"") != std::string::npos);
  CHECK(old->find("Hostname=\"" + node + "\"") == std::string::npos);
  // Unknown family or node.
  CHECK_FALSE(gpu_exposition(f.store, "dcgm-exported", node, sim_ms(f)));
  CHECK_FALSE(gpu_exposition(f.store, "dcgm", "no-such-node", sim_ms(f)));
}

TEST_CASE("arena exposition: the names and labels Arena reads, bytes", "[kubesim][gpu_exporter]") {
  SimFixture f;
  f.create("", "v1", "pods", profiled_pod("train-0", 1));
  f.step(std::chrono::seconds(5));
  const std::string node = f.pod("train-0")["spec"]["nodeName"];
  const auto text = gpu_exposition(f.store, "arena", node, sim_ms(f));
  REQUIRE(text);
  CHECK(text->find("# TYPE nvidia_gpu_duty_cycle gauge\n") == 0);
  CHECK(text->find("nvidia_gpu_duty_cycle{allocate_mode=\"exclusive\",minor_number=\"0\",namespace_name=\"default\","
                   "node_name=\"" + node + "\",pod_name=\"train-0\",uuid=\"GPU-") != std::string::npos);
  CHECK(text->find("} 17179869184\n") != std::string::npos);  // memory total, 16 GiB
  CHECK(text->find("# HELP") == std::string::npos);
}

TEST_CASE("MIG exposition: GPU_I_PROFILE and GPU_I_ID after modelName, GR_ENGINE_ACTIVE", "[kubesim][gpu_exporter]") {
  const auto dir = trainctl::testing::make_temp_dir("kubesim-mig-exporter");
  std::ofstream(dir + "/seed.yaml") << R"(nodes:
  - name: mig-a
    gpus: 14
    labels: {nvidia.com/mig.strategy: single, nvidia.com/gpu.product: A100-SXM4-40GB-MIG-1g.5gb,
             nvidia.com/gpu.memory: "5120", nvidia.com/gpu.slices.gi: "1"}
)";
  SimFixture f(false);
  load_seed_file(f.store, dir + "/seed.yaml");
  f.create("", "v1", "pods", profiled_pod("train-0", 1));
  f.step(std::chrono::seconds(5));
  const auto text = gpu_exposition(f.store, "dcgm", "mig-a", sim_ms(f));
  REQUIRE(text);
  CHECK(text->find("DCGM_FI_DEV_GPU_UTIL") == std::string::npos);
  CHECK(text->find("# HELP DCGM_FI_PROF_GR_ENGINE_ACTIVE Ratio of time the graphics engine is active.") !=
        std::string::npos);
  CHECK(text->find("modelName=\"A100-SXM4-40GB\",GPU_I_PROFILE=\"1g.5gb\",GPU_I_ID=\"0\",Hostname=\"mig-a\",") !=
        std::string::npos);
  CHECK(text->find("pod=\"train-0\"} 0.42\n") != std::string::npos);
}

TEST_CASE("targets: one per GPU node, as prometheus-operator labels a ServiceMonitor's", "[kubesim][gpu_exporter]") {
  SimFixture f;
  const json t = gpu_exporter_targets(f.store, "dcgm", "127.0.0.1:6443");
  REQUIRE(t.size() == 3);  // the demo cluster's three GPU workers
  for (const auto& target : t) {
    CHECK(target["targets"] == json::array({"127.0.0.1:6443"}));
    const json& l = target["labels"];
    const std::string path = l["__metrics_path__"];
    CHECK(std::regex_match(path, std::regex("/kubesim/exporters/dcgm/[a-z0-9.-]+/metrics")));
    CHECK(l["namespace"] == "gpu-operator");
    CHECK(l["pod"].get<std::string>().rfind("nvidia-dcgm-exporter-", 0) == 0);
    CHECK(l["service"] == "nvidia-dcgm-exporter");
    CHECK(l["instance"].get<std::string>().find(":9400") != std::string::npos);
  }
  const json a = gpu_exporter_targets(f.store, "arena", "127.0.0.1:6443");
  REQUIRE(a.size() == 3);
  CHECK(a[0]["labels"]["instance"].get<std::string>().find(":9445") != std::string::npos);
  CHECK(gpu_exporter_targets(f.store, "nope", "x").empty());
}
