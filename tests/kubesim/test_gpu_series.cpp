// The GPU series of kubesim's simulated Prometheus on the demo cluster (three workers with two
// GPUs each): label sets of the three exporter families, profiles and memory annotations, the
// 15 s samples from the pod's start, and the Prometheus API answers.
#include <fstream>
#include <set>

#include "kubesim/gpu_series.h"
#include "kubesim/prometheus_options.h"
#include "kubesim/store.h"
#include "kubesim/prometheus_api.h"
#include "support/paths.h"
#include "test_controllers_fixture.h"

using namespace kubesim;
using namespace kubesim::testing;

namespace {

json gpu_pod(const std::string& name, int gpus, json annotations = json::object()) {
  return {{"apiVersion", "v1"},
          {"kind", "Pod"},
          {"metadata", {{"name", name}, {"namespace", "default"}, {"annotations", annotations}}},
          {"spec",
           {{"restartPolicy", "Never"},
            {"containers", json::array({{{"name", "sidecar"}, {"image", "busybox"}},
                                        gpu_container("trainer", "sleep 3600", gpus)})}}}};
}

int64_t now_ms(SimFixture& f) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(f.sim->now().time_since_epoch()).count();
}

json query(SimFixture& f, const std::string& exporter, const std::string& q) {
  PrometheusAnswer a = prometheus_api(f.store, exporter, "query", {{"query", q}}, now_ms(f));
  INFO(a.body);
  REQUIRE(a.code == 200);
  json body = json::parse(a.body);
  REQUIRE(body["status"] == "success");
  return body["data"];
}

double value_of(const json& sample) { return std::stod(sample["value"][1].get<std::string>()); }

// Runs the pods of the default annotation set to Running (2s ContainerCreating).
SimFixture& running(SimFixture& f) {
  f.step(std::chrono::seconds(5));
  return f;
}

}  // namespace

TEST_CASE("dcgm: a Running pod's GPUs carry its pod, namespace and container", "[kubesim][gpu_series]") {
  SimFixture f;
  f.create("", "v1", "pods", gpu_pod("train-0", 2, {{"kubesim.trainctl.io/gpu-memory", "6Gi"}}));
  running(f);
  const std::string node = f.pod("train-0")["spec"]["nodeName"];
  json d = query(
      f, "dcgm",
      "{__name__=~\"DCGM_FI_DEV_GPU_UTIL|DCGM_FI_DEV_FB_USED|DCGM_FI_DEV_FB_FREE\", namespace=\"default\", "
      "pod=~\"train-0\"}");
  CHECK(d["resultType"] == "vector");
  REQUIRE(d["result"].size() == 6);
  for (const auto& s : d["result"]) {
    const json& m = s["metric"];
    CHECK(m["pod"] == "train-0");
    CHECK(m["namespace"] == "default");
    CHECK(m["container"] == "trainer");
    CHECK(m["Hostname"] == node);
    CHECK(m["modelName"] == "NVIDIA A100-SXM4-40GB");
    CHECK(m["device"] == "nvidia" + m["gpu"].get<std::string>());
    CHECK(m["UUID"].get<std::string>().rfind("GPU-", 0) == 0);
    CHECK(m["UUID"].get<std::string>().size() == 40);
    CHECK(s["value"][0] == now_ms(f) / 1000);
    const std::string name = m["__name__"];
    if (name == "DCGM_FI_DEV_GPU_UTIL") {
      CHECK(value_of(s) >= 70);
      CHECK(value_of(s) <= 99);
    } else if (name == "DCGM_FI_DEV_FB_USED") {
      CHECK(s["value"][1] == "6144");
    } else {
      CHECK(s["value"][1] == "10240");  // 16Gi - 6Gi in MiB
    }
  }
  // The other GPUs report as idle, without pod labels: 3 nodes x 2 GPUs in all.
  json all = query(f, "dcgm", "DCGM_FI_DEV_GPU_UTIL");
  CHECK(all["result"].size() == 6);
  json free_gpus = query(f, "dcgm", "DCGM_FI_DEV_FB_USED{pod=\"\"}");
  REQUIRE(free_gpus["result"].size() == 4);
  CHECK(free_gpus["result"][0]["value"][1] == "0");
  // The UUIDs are stable and distinct.
  std::set<std::string> uuids;
  for (const auto& s : all["result"]) uuids.insert(s["metric"]["UUID"].get<std::string>());
  CHECK(uuids.size() == 6);
  CHECK(query(f, "dcgm", "DCGM_FI_DEV_GPU_UTIL")["result"] == all["result"]);
}

TEST_CASE("dcgm-exported: the job's pod is in exported_* labels", "[kubesim][gpu_series]") {
  SimFixture f;
  f.create("", "v1", "pods", gpu_pod("train-0", 1));
  running(f);
  json d = query(f, "dcgm-exported",
                 "DCGM_FI_DEV_FB_USED{exported_namespace=\"default\", exported_pod=~\"train-0\"}");
  REQUIRE(d["result"].size() == 1);
  const json& m = d["result"][0]["metric"];
  CHECK(m["exported_pod"] == "train-0");
  CHECK(m["exported_container"] == "trainer");
  CHECK(m["namespace"] == "gpu-operator");
  CHECK(m["pod"].get<std::string>().rfind("nvidia-dcgm-exporter-", 0) == 0);
  CHECK(m["pod"].get<std::string>().size() == std::string("nvidia-dcgm-exporter-").size() + 5);
  CHECK(m["instance"].get<std::string>().find(":9400") != std::string::npos);
  CHECK(m.contains("job"));
  CHECK(d["result"][0]["value"][1] == "9830");  // 60 % of 16Gi in MiB, rounded
  CHECK(query(f, "dcgm-exported", "DCGM_FI_DEV_FB_USED{pod=\"train-0\"}")["result"].empty());
}

TEST_CASE("dcgm-before-3.1.6: Hostname is the exporter pod's name, which runs on the node",
          "[kubesim][gpu_series]") {
  SimFixture f;
  PrometheusOptions o;
  o.exporter = kDcgmBefore316;
  install_prometheus_service(f.store, o);
  f.create("", "v1", "pods", gpu_pod("train-0", 1));
  running(f);
  const std::string node = f.pod("train-0")["spec"]["nodeName"];
  json d = query(f, kDcgmBefore316, "DCGM_FI_DEV_FB_USED{exported_pod=\"train-0\"}");
  REQUIRE(d["result"].size() == 1);
  const json& m = d["result"][0]["metric"];
  CHECK(m["Hostname"] == exporter_pod(node));
  CHECK(m["pod"] == exporter_pod(node));
  const ResourceType* pods = f.store.find("", "v1", "pods");
  const auto exporter = f.store.get(*pods, "gpu-operator", exporter_pod(node));
  REQUIRE(exporter);
  CHECK((*exporter)["spec"]["nodeName"] == node);
  CHECK((*exporter)["metadata"]["labels"]["app"] == "nvidia-dcgm-exporter");
  CHECK(m["instance"] == (*exporter)["status"]["podIP"].get<std::string>() + ":9400");
}

TEST_CASE("arena: Alibaba's exporter names, in bytes", "[kubesim][gpu_series]") {
  SimFixture f;
  f.create("", "v1", "pods", gpu_pod("train-0", 2, {{"kubesim.trainctl.io/gpu-profile", "42"}}));
  running(f);
  json d = query(
      f, "arena",
      "{__name__=~\"nvidia_gpu_duty_cycle|nvidia_gpu_memory_used_bytes|nvidia_gpu_memory_total_bytes\", "
      "pod_name=~\"train-0\"}");
  REQUIRE(d["result"].size() == 6);
  std::set<std::string> minors;
  for (const auto& s : d["result"]) {
    const json& m = s["metric"];
    CHECK(m["namespace_name"] == "default");
    CHECK(m["allocate_mode"] == "exclusive");
    CHECK(m["node_name"] == f.pod("train-0")["spec"]["nodeName"]);
    minors.insert(m["minor_number"].get<std::string>());
    const std::string name = m["__name__"];
    if (name == "nvidia_gpu_duty_cycle") CHECK(s["value"][1] == "42");
    if (name == "nvidia_gpu_memory_used_bytes") CHECK(value_of(s) == Approx(9830.0 * 1048576));
    if (name == "nvidia_gpu_memory_total_bytes") CHECK(s["value"][1] == "17179869184");
  }
  CHECK(minors == std::set<std::string>{"0", "1"});
  CHECK(query(f, "arena", "nvidia_gpu_duty_cycle{node_name=~\".*\"}")["result"].size() == 6);
}

TEST_CASE("profiles: idle, busy per minute, and job annotations", "[kubesim][gpu_series]") {
  CHECK(gpu_utilisation("idle", "ns/p", 0, 0) == 0);
  CHECK(gpu_utilisation("17.5", "ns/p", 0, 0) == 17.5);
  CHECK(gpu_utilisation("250", "ns/p", 0, 0) == 100);
  std::set<double> seen;
  for (int64_t minute = 0; minute < 30; ++minute) {
    const double v = gpu_utilisation("", "ns/p", 0, minute * 60'000);
    CHECK(v >= 70);
    CHECK(v <= 99);
    CHECK(v == gpu_utilisation("busy", "ns/p", 0, minute * 60'000 + 59'000));
    seen.insert(v);
  }
  CHECK(seen.size() > 5);

  SimFixture f;
  json job = {
      {"apiVersion", "batch/v1"},
      {"kind", "Job"},
      {"metadata",
       {{"name", "quiet"},
        {"namespace", "default"},
        {"annotations",
         {{"kubesim.trainctl.io/gpu-profile", "idle"}, {"kubesim.trainctl.io/outcome", "run-forever"}}}}},
      {"spec",
       {{"template",
         {{"spec",
           {{"restartPolicy", "Never"},
            {"containers", json::array({gpu_container("trainer", "python train.py", 1)})}}}}}}}};
  f.create("batch", "v1", "jobs", job);
  f.step(std::chrono::seconds(5));
  json d = query(f, "dcgm", "max_over_time(DCGM_FI_DEV_GPU_UTIL{pod=~\"quiet-.*\"}[5m])");
  REQUIRE(d["result"].size() == 1);
  CHECK(d["result"][0]["value"][1] == "0");
  CHECK(!d["result"][0]["metric"].contains("__name__"));
}

TEST_CASE("samples every 15 s from the pod's start; query_range", "[kubesim][gpu_series]") {
  SimFixture f;
  f.create("", "v1", "pods", gpu_pod("train-0", 1, {{"kubesim.trainctl.io/gpu-profile", "55"}}));
  f.step(std::chrono::seconds(2));  // ContainerCreating takes 2s: Running now
  REQUIRE(phase(f.pod("train-0")) == "Running");
  const int64_t started = now_ms(f);
  f.step(std::chrono::seconds(50));
  const int64_t now = now_ms(f);
  auto series = gpu_series(f.store, "dcgm", now - 300'000, now, now);
  bool found = false;
  for (const auto& s : series) {
    if (s.labels.count("pod") == 0 || s.labels.at("__name__") != "DCGM_FI_DEV_GPU_UTIL") continue;
    found = true;
    REQUIRE(s.points.size() == 4);  // started, +15, +30, +45
    CHECK(s.points[0].t_ms >= started - 1000);
    CHECK(s.points[1].t_ms - s.points[0].t_ms == 15'000);
  }
  CHECK(found);
  const std::string start = std::to_string((now - 120'000) / 1000), end = std::to_string(now / 1000);
  PrometheusAnswer a = prometheus_api(
      f.store, "dcgm", "query_range",
      {{"query", "DCGM_FI_DEV_GPU_UTIL{pod=\"train-0\"}"}, {"start", start}, {"end", end}, {"step", "15s"}},
      now);
  REQUIRE(a.code == 200);
  json d = json::parse(a.body)["data"];
  CHECK(d["resultType"] == "matrix");
  REQUIRE(d["result"].size() == 1);
  const json& values = d["result"][0]["values"];
  CHECK(values.size() >= 3);
  CHECK(values.size() <= 5);  // no points before the pod ran
  CHECK(values[0][1] == "55");
  // Before the pod ran, an instant query finds nothing of it.
  a = prometheus_api(
      f.store, "dcgm", "query",
      {{"query", "DCGM_FI_DEV_GPU_UTIL{pod=\"train-0\"}"}, {"time", std::to_string(started / 1000 - 10)}},
      now);
  CHECK(json::parse(a.body)["data"]["result"].empty());
}

TEST_CASE("Prometheus API errors", "[kubesim][gpu_series]") {
  Store store;
  Simulation::ensure_types(store);
  auto bad = [&](const std::string& endpoint, std::map<std::string, std::string> params) {
    PrometheusAnswer a = prometheus_api(store, "dcgm", endpoint, params, 1'700'000'000'000);
    CHECK(a.code == 400);
    json b = json::parse(a.body);
    CHECK(b["status"] == "error");
    CHECK(b["errorType"] == "bad_data");
    return b["error"].get<std::string>();
  };
  CHECK(bad("query", {{"query", "DCGM_FI_DEV_GPU_UTIL{"}}).rfind("invalid parameter \"query\": 1:", 0) == 0);
  CHECK(bad("query", {}).find("no expression") != std::string::npos);
  CHECK(bad("query", {{"query", "up"}, {"time", "yesterday"}}).find("cannot parse") != std::string::npos);
  CHECK(bad("query_range", {{"query", "up"}, {"start", "10"}, {"end", "5"}, {"step", "1"}}).find("before") !=
        std::string::npos);
  CHECK(bad("query_range", {{"query", "up"}, {"start", "0"}, {"end", "100000"}, {"step", "1"}})
            .find("11,000") != std::string::npos);
  CHECK(bad("query_range", {{"query", "up[5m]"}, {"start", "0"}, {"end", "10"}, {"step", "1"}})
            .find("range vector") != std::string::npos);
  PrometheusAnswer nf = prometheus_api(store, "dcgm", "labels", {}, 0);
  CHECK(nf.code == 404);
  PrometheusAnswer ok =
      prometheus_api(store, "dcgm", "query", {{"query", "up"}, {"time", "2023-11-14T22:13:20Z"}}, 0);
  CHECK(ok.code == 200);
  CHECK(ok.body == R"({"data":{"result":[],"resultType":"vector"},"status":"success"})");
}

TEST_CASE("seed: prometheus key and gpuMemory", "[kubesim][gpu_series][seed]") {
  const auto dir = trainctl::testing::make_temp_dir("kubesim-prom-seed");
  const std::string path = dir + "/seed.yaml";
  std::ofstream(path) << R"(nodes:
  - {name: gpu-a, ip: 10.0.0.5, gpus: 2, gpuMemory: 40Gi}
prometheus: {exporter: arena}
)";
  Store store;
  Simulation::ensure_types(store);
  SeedStats stats = load_seed_file(store, path);
  REQUIRE(stats.prometheus);
  CHECK(stats.prometheus->exporter == "arena");
  CHECK(stats.prometheus->ns == "monitoring");
  auto svc = store.get(*store.find("", "v1", "services"), "monitoring", "prometheus-server");
  REQUIRE(svc);
  CHECK((*svc)["metadata"]["labels"]["kubernetes.io/service-name"] == "prometheus-server");
  CHECK((*svc)["metadata"]["labels"]["app.kubernetes.io/name"] == "prometheus");
  CHECK((*svc)["spec"]["ports"][0]["name"] == "http");
  CHECK((*svc)["spec"]["ports"][0]["port"] == 9090);
  CHECK(store.get(*store.find("", "v1", "namespaces"), "", "monitoring"));
  auto node = store.get(*store.find("", "v1", "nodes"), "", "gpu-a");
  CHECK((*node)["metadata"]["labels"]["nvidia.com/gpu.memory"] == "40960");
  auto series = gpu_series(store, "arena", 1'699'999'940'000, 1'700'000'000'000, 1'700'000'000'000);
  REQUIRE(series.size() == 6);
  CHECK(series[2].labels["__name__"] == "nvidia_gpu_memory_total_bytes");
  CHECK(series[2].points.back().v == 40960.0 * 1048576);

  std::ofstream(path) << "prometheus: {exporter: nvml}\n";
  CHECK_THROWS_WITH(load_seed_file(store, path), Catch::Contains("dcgm, dcgm-exported, dcgm-before-3.1.6 or arena"));
}

TEST_CASE("docs/metrics.md queries find the pod's GPUs in every family", "[kubesim][gpu_series]") {
  SimFixture f;
  f.create("", "v1", "pods", gpu_pod("train.v1-0", 2));
  running(f);
  const std::string met =
      "__name__=~\"DCGM_FI_DEV_GPU_UTIL|DCGM_FI_PROF_GR_ENGINE_ACTIVE|DCGM_FI_DEV_FB_USED|DCGM_FI_DEV_FB_"
      "FREE|"
      "DCGM_FI_DEV_FB_RESERVED\"";
  const std::string arena =
      "__name__=~\"nvidia_gpu_duty_cycle|nvidia_gpu_memory_used_bytes|nvidia_gpu_memory_total_bytes\"";
  const std::string p = R"("train\\.v1-0|other")";
  const std::string job = "{" + met + ", exported_namespace=\"default\", exported_pod=~" + p + "} or {" +
                          met + ", namespace=\"default\", pod=~" + p + "} or {" + met +
                          ", pod_namespace=\"default\", pod_name=~" + p + "} or {" + arena + ", pod_name=~" +
                          p + "}";
  const std::string node = "{" + met + ", Hostname=~\".+\"} or {" + met + ", hostname=~\".+\"} or {" + arena +
                           ", node_name=~\".+\"}";
  for (const char* family : {"dcgm", "dcgm-exported", "arena"}) {
    INFO(family);
    CHECK(query(f, family, job)["result"].size() == 6);
    CHECK(query(f, family, node)["result"].size() == 18);
    const std::string sel = std::string(family) == "arena" ? "nvidia_gpu_duty_cycle{pod_name=~" + p + "}"
                                                           : "DCGM_FI_DEV_GPU_UTIL{pod=~" + p + "}";
    const std::string idle =
        "label_replace(max_over_time(" + sel + "[5m]), \"src\", \"util\", \"__name__\", \".*\")";
    const json r = query(f, family, idle)["result"];
    CHECK(r.size() == (std::string(family) == "dcgm-exported" ? 0u : 2u));
    for (const auto& s : r) CHECK(s["metric"]["src"] == "util");
  }
}

TEST_CASE("MIG, single strategy: one series set per MIG device, GR_ENGINE_ACTIVE instead of GPU_UTIL",
          "[kubesim][gpu_series][mig]") {
  // Two A100s cut into seven 1g.5gb devices each: the device plugin offers 14 nvidia.com/gpu
  // (GPU feature discovery's labels, k8s-device-plugin docs/gpu-feature-discovery/README.md).
  const auto dir = trainctl::testing::make_temp_dir("kubesim-mig-seed");
  const std::string path = dir + "/seed.yaml";
  std::ofstream(path) << R"(nodes:
  - name: mig-a
    gpus: 14
    labels: {nvidia.com/mig.strategy: single, nvidia.com/gpu.product: A100-SXM4-40GB-MIG-1g.5gb,
             nvidia.com/gpu.memory: "5120", nvidia.com/gpu.slices.gi: "1"}
)";
  SimFixture f(false);
  load_seed_file(f.store, path);
  f.create("", "v1", "pods", gpu_pod("train-0", 2, {{"kubesim.trainctl.io/gpu-memory", "1Gi"}}));
  running(f);
  REQUIRE(f.pod("train-0")["spec"]["nodeName"] == "mig-a");
  json d = query(f, "dcgm", "{__name__=~\"DCGM_FI_DEV_GPU_UTIL|DCGM_FI_PROF_GR_ENGINE_ACTIVE\", pod=\"train-0\"}");
  REQUIRE(d["result"].size() == 2);  // no GPU_UTIL on a MIG device
  std::set<std::string> ids;
  for (const auto& s : d["result"]) {
    const json& m = s["metric"];
    CHECK(m["__name__"] == "DCGM_FI_PROF_GR_ENGINE_ACTIVE");
    CHECK(m["gpu"] == "0");  // devices 0 and 1 are both on the first GPU
    CHECK(m["GPU_I_PROFILE"] == "1g.5gb");
    CHECK(m["modelName"] == "A100-SXM4-40GB");
    ids.insert(m["GPU_I_ID"].get<std::string>());
    CHECK(value_of(s) >= 0.70);  // busy: 70-99 %, as a ratio
    CHECK(value_of(s) <= 0.99);
  }
  CHECK(ids == std::set<std::string>{"0", "1"});
  // Memory per device from nvidia.com/gpu.memory.
  d = query(f, "dcgm", "DCGM_FI_DEV_FB_FREE{pod=\"train-0\", GPU_I_ID=\"1\"}");
  REQUIRE(d["result"].size() == 1);
  CHECK(d["result"][0]["value"][1] == "4096");
  // The eighth device is the first of the second GPU, which shares the parent's UUID.
  d = query(f, "dcgm", "DCGM_FI_DEV_FB_USED{Hostname=\"mig-a\", gpu=\"1\"}");
  REQUIRE(d["result"].size() == 7);
  std::set<std::string> uuids;
  for (const auto& s : d["result"]) uuids.insert(s["metric"]["UUID"].get<std::string>());
  CHECK(uuids.size() == 1);
  // Alibaba's exporter knows no MIG: each device is a GPU of its own there.
  d = query(f, "arena", "nvidia_gpu_duty_cycle{node_name=\"mig-a\"}");
  CHECK(d["result"].size() == 14);
}
