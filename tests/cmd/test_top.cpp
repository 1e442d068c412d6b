#include <catch2/catch.hpp>

#include "cmd_harness.h"
#include "core/errors.h"
#include "get_stubs.h"
#include "kube/query.h"
#include "metrics/gpu_metrics.h"
#include "metrics/gpu_queries.h"
#include "scenario.h"

using namespace get_stubs;
using namespace fixtures;

namespace {
const std::string kNodes = "/api/v1/nodes?limit=100";
const std::string kActivePods =
    "/api/v1/pods?fieldSelector=status.phase%21%3DFailed%2Cstatus.phase%21%3DSucceeded&limit=100";
// `top node NAME` reads only the pods scheduled on NAME.
std::string active_pods_on(const std::string& node) {
  return "/api/v1/pods?fieldSelector=status.phase%21%3DFailed%2Cstatus.phase%21%3DSucceeded%2Cspec.nodeName%3D" +
         node + "&limit=100";
}

// Seed 000's cluster: three master nodes without GPUs, three workers with 2 GPUs each.
json seed_nodes() {
  json nodes = json::array();
  for (int i = 1; i <= 6; ++i) {
    const std::string ip = "192.168.0." + std::to_string(i);
    json labels = i <= 3 ? json{{"node-role.kubernetes.io/master", ""}} : json::object();
    json cap = i <= 3 ? json{{"cpu", "4"}} : json{{"cpu", "8"}, {"nvidia.com/gpu", "2"}};
    nodes.push_back(node("cn-huhehaote." + ip, true, ip, labels, cap));
  }
  return nodes;
}

// A sample value as Prometheus writes it (strconv.FormatFloat 'f', -1): "90", "4294967296".
std::string fmt_number(double v) {
  std::string s = std::to_string(v);
  s.erase(s.find_last_not_of('0') + 1);
  if (s.back() == '.') s.pop_back();
  return s;
}

json gpu_pod(const std::string& name, const std::string& node, int gpus) {
  json p = pod(name, json::object(), "Running", gpus, node);
  return p;
}
}  // namespace

TEST_CASE("top node prints seed 000's table and footer") {
  Harness h;
  h.client->on_get(kNodes, trainctl::testing::FakeClient::list(seed_nodes()));
  h.client->on_get(kActivePods, trainctl::testing::FakeClient::list(
                                    json::array({gpu_pod("a", "cn-huhehaote.192.168.0.4", 1),
                                                 gpu_pod("b", "cn-huhehaote.192.168.0.4", 1),
                                                 gpu_pod("c", "cn-huhehaote.192.168.0.6", 1),
                                                 gpu_pod("cpu-only", "cn-huhehaote.192.168.0.5", 0)})));
  h.run({"top", "node"});
  CHECK(h.out() ==
        "NAME                      IPADDRESS    ROLE    STATUS  GPU(Total)  GPU(Allocated)\n"
        "cn-huhehaote.192.168.0.1  192.168.0.1  master  ready   0           0\n"
        "cn-huhehaote.192.168.0.2  192.168.0.2  master  ready   0           0\n"
        "cn-huhehaote.192.168.0.3  192.168.0.3  master  ready   0           0\n"
        "cn-huhehaote.192.168.0.4  192.168.0.4  <none>  ready   2           2\n"
        "cn-huhehaote.192.168.0.5  192.168.0.5  <none>  ready   2           0\n"
        "cn-huhehaote.192.168.0.6  192.168.0.6  <none>  ready   2           1\n"
        "-----------------------------------------------------------------------------------------\n"
        "Allocated/Total GPUs In Cluster:\n"
        "3/6 (50%)\n");
  REQUIRE(h.client->batches().size() == 1);
  CHECK(h.client->batches()[0] == 2);
  CHECK_NOTHROW(h.client->verify());
}

TEST_CASE("top node with no allocation prints 0/6 (0%)") {
  Harness h;
  h.client->on_get(kNodes, trainctl::testing::FakeClient::list(seed_nodes()));
  h.client->on_get(kActivePods, trainctl::testing::FakeClient::list(json::array()));
  h.run({"top", "node"});
  const std::string tail = "Allocated/Total GPUs In Cluster:\n0/6 (0%)\n";
  REQUIRE(h.out().size() > tail.size());
  CHECK(h.out().substr(h.out().size() - tail.size()) == tail);
}

TEST_CASE("top node: mixed GPU modes add GPU(Mode), unhealthy GPUs add UNHEALTHY; percentages truncate") {
  Harness h;
  json nodes = json::array(
      {node("gpu-a", true, "10.0.0.1", json::object(), {{"nvidia.com/gpu", "2"}}, {{"nvidia.com/gpu", "1"}}),
       node("topo-b", false, "10.0.0.2",
            {{"ack.node.gpu.schedule", "topology"}, {"kubernetes.io/role", "worker"}},
            {{"aliyun.com/gpu", "4"}})});
  json topo_pod = pod("t", json::object(), "Running", 0, "topo-b");
  topo_pod["spec"]["containers"][0]["resources"] = {{"limits", {{"aliyun.com/gpu", "1"}}}};
  h.client->on_get(kNodes, trainctl::testing::FakeClient::list(nodes));
  h.client->on_get(kActivePods, trainctl::testing::FakeClient::list(json::array({topo_pod})));
  h.run({"top", "node"});
  CHECK(h.out() ==
        "NAME    IPADDRESS  ROLE    STATUS    GPU(Total)  GPU(Allocated)  GPU(Mode)  UNHEALTHY\n"
        "gpu-a   10.0.0.1   <none>  ready     2           0               exclusive  1\n"
        "topo-b  10.0.0.2   worker  notready  4           1               topology   0\n"
        "-----------------------------------------------------------------------------------------\n"
        "Allocated/Total GPUs In Cluster:\n"
        "1/6 (16%)\n"
        "Unhealthy/Total GPUs In Cluster:\n"
        "1/6 (16%)\n");
}

TEST_CASE("top node on a TTY adds a usage bar; -d lists each node's GPU instances") {
  Harness tty(true);
  tty.client->on_get(kNodes, trainctl::testing::FakeClient::list(seed_nodes()));
  tty.client->on_get(active_pods_on("cn-huhehaote.192.168.0.4"), trainctl::testing::FakeClient::list(
                                      json::array({gpu_pod("a", "cn-huhehaote.192.168.0.4", 2)})));
  tty.run({"top", "node", "cn-huhehaote.192.168.0.4"});
  CHECK(tty.out().find("GPU(Usage)") != std::string::npos);
  CHECK(tty.out().find("██████████") != std::string::npos);
  CHECK(tty.out().find("cn-huhehaote.192.168.0.5") == std::string::npos);

  Harness d;
  d.client->on_get(kNodes, trainctl::testing::FakeClient::list(seed_nodes()));
  d.client->on_get(active_pods_on("cn-huhehaote.192.168.0.4"),
                   trainctl::testing::FakeClient::list(
                       json::array({gpu_pod("train-0", "cn-huhehaote.192.168.0.4", 2)})));
  d.run({"top", "node", "-d", "cn-huhehaote.192.168.0.4"});
  CHECK(d.out() ==
        "\n"
        "Name:     cn-huhehaote.192.168.0.4\n"
        "Status:   ready\n"
        "Role:     <none>\n"
        "Type:     exclusive\n"
        "Address:  192.168.0.4\n"
        "Instances:\n"
        "  NAMESPACE  NAME     STATUS   GPU(Requested)\n"
        "  default    train-0  Running  2\n"
        "GPU Summary:\n"
        "  Total GPUs:      2\n"
        "  Allocated GPUs:  2\n"
        "  Unhealthy GPUs:  0\n"
        "-----------------------------------------------------------------------------------------\n"
        "Allocated/Total GPUs In Cluster:\n"
        "2/2 (100%)\n");
}

TEST_CASE("top node of an unknown node is NotFound; -o json carries the numbers") {
  Harness h;
  h.client->on_get(kNodes, trainctl::testing::FakeClient::list(seed_nodes()));
  h.client->on_get(active_pods_on("ghost"), trainctl::testing::FakeClient::list(json::array()));
  CHECK_THROWS_AS(h.run({"top", "node", "ghost"}), trainctl::NotFoundError);

  Harness j;
  j.client->on_get(kNodes, trainctl::testing::FakeClient::list(seed_nodes()));
  j.client->on_get(kActivePods, trainctl::testing::FakeClient::list(
                                    json::array({gpu_pod("a", "cn-huhehaote.192.168.0.4", 1)})));
  j.run({"top", "node", "-o", "json"});
  auto arr = json::parse(j.out());
  REQUIRE(arr.size() == 6);
  CHECK(arr[3]["name"] == "cn-huhehaote.192.168.0.4");
  CHECK(arr[3]["totalGPUs"] == 2);
  CHECK(arr[3]["allocatedGPUs"] == 1);
  CHECK(arr[3]["gpuMode"] == "exclusive");
  CHECK(arr[0]["role"] == "master");
}

TEST_CASE("top job prints per-job GPUs and the totals of running jobs") {
  Harness h;
  using namespace scenario;
  auto& c = *h.client;
  c.on_get(paths::kPyTorchJobs, FakeClient::list(json::array({pytorch_git(), pytorch_dist()})));
  c.on_get(paths::kMPIJobs, FakeClient::list(json::array({mpi_pending()})));
  c.on_get(paths::kVolcanoJobs, FakeClient::list(json::array({vj()})));
  c.on_get(paths::kBatchJobs, FakeClient::list(json::array()));
  c.on_not_found(paths::kTFJobs);
  c.on_not_found(paths::kTrainJobs);
  c.on_get(paths::kJobSetPods, FakeClient::list(json::array()));
  c.on_get(paths::kLegacyPods, FakeClient::list(json::array()));
  c.on_get(paths::kTrainingPods,
           FakeClient::list(concat(pytorch_dist_pods(), pytorch_git_pods(), mpi_pending_pods())));
  c.on_get(paths::kVolcanoPods, FakeClient::list(concat(vj_pods())));
  c.on_get(paths::kBatchPods, FakeClient::list(json::array()));
  h.run({"top", "job"});
  CHECK(h.out() ==
        "NAME          STATUS     TRAINER     AGE  GPU(Requested)  GPU(Allocated)  NODE\n"
        "pytorch-dist  RUNNING    PYTORCHJOB  21s  3               3               192.168.0.31\n"
        "mpi-pending   PENDING    MPIJOB      5m   2               0               N/A\n"
        "pytorch-git   SUCCEEDED  PYTORCHJOB  5m   1               0               192.168.0.33\n"
        "vj            RUNNING    VOLCANOJOB  2h   2               2               192.168.0.33\n"
        "\n"
        "Total Allocated/Requested GPUs of Training Jobs: 5/5\n");
  CHECK_NOTHROW(c.verify());
}

namespace {
// pytorch-dist with worker-0 placed by the GPU-share extender on device 0.
void stub_pytorch_dist(FakeClient& c) {
  auto pods = scenario::concat(scenario::pytorch_dist_pods());
  pods[1]["metadata"]["annotations"] = {{"ALIYUN_COM_GPU_MEM_IDX", "0"}};
  stub_job(c, 0, "pytorch-dist", scenario::pytorch_dist(), pods);
}
}  // namespace

TEST_CASE("top job NAME prints Arena's per-job view: instances, nodes, GPUs; metrics N/A") {
  Harness h;
  stub_pytorch_dist(*h.client);
  h.run({"top", "job", "pytorch-dist"});
  // Chief first; device index from ALIYUN_COM_GPU_MEM_IDX; no metrics source, so N/A.
  CHECK(h.out() ==
        "NAME                   STATUS   GPU(Request)  NODE    GPU(DeviceIndex)  GPU(DutyCycle)  "
        "GPU_MEMORY(Used/Total)\n"
        "pytorch-dist-master-0  Running  1             node-1  N/A               N/A             N/A\n"
        "pytorch-dist-worker-0  Running  1             node-2  0                 N/A             N/A\n"
        "pytorch-dist-worker-1  Running  1             node-2  N/A               N/A             N/A\n");
  REQUIRE(h.client->batches().size() == 1);  // job GETs and pod lists in one round trip
  CHECK_NOTHROW(h.client->verify());
}

TEST_CASE("top job NAME -i INSTANCE narrows to one instance; an unknown instance is NotFound") {
  Harness h;
  stub_pytorch_dist(*h.client);
  h.run({"top", "job", "pytorch-dist", "-i", "pytorch-dist-worker-1"});
  CHECK(h.out() ==
        "NAME                   STATUS   GPU(Request)  NODE    GPU(DeviceIndex)  GPU(DutyCycle)  "
        "GPU_MEMORY(Used/Total)\n"
        "pytorch-dist-worker-1  Running  1             node-2  N/A               N/A             N/A\n");

  Harness j;
  stub_pytorch_dist(*j.client);
  j.run({"top", "job", "pytorch-dist", "-i", "pytorch-dist-worker-0", "-o", "json"});
  auto job = json::parse(j.out());
  CHECK(job["name"] == "pytorch-dist");
  REQUIRE(job["instances"].size() == 1);
  CHECK(job["instances"][0]["gpuDeviceIndex"] == "0");

  Harness n;
  stub_pytorch_dist(*n.client);
  CHECK_THROWS_AS(n.run({"top", "job", "pytorch-dist", "-i", "nope"}), trainctl::NotFoundError);
  Harness u;
  CHECK_THROWS_AS(u.run({"top", "job", "-i", "x"}), trainctl::UsageError);
}

TEST_CASE("top job NAME with Prometheus: one row per GPU with Arena's duty cycle and memory; JSON gpuMetrics") {
  using trainctl::metrics::MetricsSource;
  const std::string prefix = "/api/v1/namespaces/monitoring/services/prometheus-server:9090/proxy";
  auto prom = std::make_shared<trainctl::testing::FakeClient>();
  // DCGM series of worker-0's two GPUs as a ServiceMonitor relabels them (exported_pod).
  // Evaluated by Prometheus at 10:10:00, 10m29s after the pods were made (09:59:31,
  // scenario.h): old enough to judge, though the client's clock says 10:00:00.
  auto dcgm = [](const char* name, const char* gpu, const char* value, bool window = false) {
    json j = {{"metric",
               {{"__name__", name}, {"gpu", gpu}, {"Hostname", "node-2"}, {"exported_pod", "pytorch-dist-worker-0"},
                {"exported_namespace", "default"}, {"pod", "dcgm-exporter-1"}, {"namespace", "gpu-operator"}}},
              {"value", {1714558200.0, value}}};
    if (window) j["metric"]["trainctl_max_over"] = "600s";
    return j;
  };
  const json answer = {{"status", "success"},
                       {"data",
                        {{"resultType", "vector"},
                         {"result", json::array({dcgm("DCGM_FI_DEV_GPU_UTIL", "1", "12"), dcgm("DCGM_FI_DEV_GPU_UTIL", "0", "87"),
                                                 dcgm("DCGM_FI_DEV_FB_USED", "0", "1024"),
                                                 dcgm("DCGM_FI_DEV_FB_FREE", "0", "15360"),
                                                 dcgm("DCGM_FI_DEV_GPU_UTIL", "0", "97", true),
                                                 dcgm("DCGM_FI_DEV_GPU_UTIL", "1", "3", true)})}}}};
  const std::vector<std::string> running = {"pytorch-dist-master-0", "pytorch-dist-worker-0", "pytorch-dist-worker-1"};
  const std::string path = prefix + "/api/v1/query" +
                           trainctl::kube::Query()
                               .add("query", trainctl::metrics::job_gpu_query("default", running, 600))
                               .add("timeout", "5s")
                               .encode();
  for (int n = 0; n < 2; ++n) prom->on_get(path, answer);
  // The range query of the last 10m (the client's clock, 10:00:00) in 20 s steps: GPU 0 at 90 %
  // throughout, GPU 1 at 60 % then under 5 % for the last eleven steps.
  auto range_of = [](const char* gpu, auto value_at) {
    json values = json::array();
    for (int i = 0; i <= 30; ++i) values.push_back({1714557000 + 20 * i, fmt_number(value_at(i))});
    json metric = {{"__name__", "DCGM_FI_DEV_GPU_UTIL"}, {"gpu", gpu}, {"Hostname", "node-2"},
                   {"exported_pod", "pytorch-dist-worker-0"}, {"exported_namespace", "default"},
                   {"pod", "dcgm-exporter-1"}, {"namespace", "gpu-operator"}};
    return json{{"metric", metric}, {"values", values}};
  };
  const json matrix = {{"status", "success"},
                       {"data",
                        {{"resultType", "matrix"},
                         {"result", json::array({range_of("0", [](int) { return 90.0; }),
                                                 range_of("1", [](int i) { return i < 20 ? 60.0 : 2.0; })})}}}};
  const std::string range_path = prefix + "/api/v1/query_range" +
                                 trainctl::kube::Query()
                                     .add("query", trainctl::metrics::job_utilization_query("default", running))
                                     .add("start", "1714557000")
                                     .add("end", "1714557600")
                                     .add("step", "20")
                                     .add("timeout", "5s")
                                     .encode();
  for (int n = 0; n < 2; ++n) prom->on_get(range_path, matrix);

  Harness h;
  stub_pytorch_dist(*h.client);
  h.factory.set_metrics_source({MetricsSource(prom, prefix, "Prometheus monitoring/prometheus-server:9090",
                                              std::chrono::seconds(5)),
                                ""});
  h.run({"top", "job", "pytorch-dist"});
  CHECK(h.out() ==
        "NAME                   STATUS   GPU(Request)  NODE    GPU(DeviceIndex)  GPU(DutyCycle)  "
        "GPU_MEMORY(Used/Total)  GPU(Idle)\n"
        "pytorch-dist-master-0  Running  1             node-1  N/A               N/A             N/A                     N/A\n"
        "pytorch-dist-worker-0  Running  1             node-2  0                 87.0%           1024.0/16384.0(MiB)     no\n"
        "pytorch-dist-worker-0  Running  1             node-2  1                 12.0%           N/A                     yes\n"
        "pytorch-dist-worker-1  Running  1             node-2  N/A               N/A             N/A                     N/A\n"
        "Idle/Allocated GPUs: 1/2 (under 5% for the last 10m)\n"
        "\n"
        "GPU utilisation, last 10m (20s a column, 0-100%):\n"
        "INSTANCE               GPU  UTILISATION                      MIN    MEAN   MAX    UNDER 5%\n"
        "pytorch-dist-worker-0  0    ###############################  90.0%  90.0%  90.0%  -\n"
        "pytorch-dist-worker-0  1    ====================___________  2.0%   39.4%  60.0%  3m\n");
  CHECK(h.err().empty());

  Harness j;
  stub_pytorch_dist(*j.client);
  j.factory.set_metrics_source({MetricsSource(prom, prefix, "Prometheus", std::chrono::seconds(5)), ""});
  j.run({"top", "job", "pytorch-dist", "-o", "json"});
  const auto doc = json::parse(j.out());
  const auto& w0 = doc["instances"][1];
  REQUIRE(w0["name"] == "pytorch-dist-worker-0");
  CHECK(w0["gpuMetrics"]["0"] == json{{"gpuDutyCycle", 87.0},
                                      {"usedGPUMemory", 1073741824.0},
                                      {"totalGPUMemory", 17179869184.0},
                                      {"maxGPUDutyCycle", 97.0},
                                      {"idle", false}});
  CHECK(w0["gpuMetrics"]["1"]["usedGPUMemory"].is_null());
  CHECK(w0["gpuMetrics"]["1"]["idle"] == true);
  CHECK(doc["instances"][0]["gpuMetrics"] == json::object());
  const auto& history = doc["gpuUtilizationHistory"];
  CHECK(history["start"] == "2024-05-01T09:50:00Z");
  CHECK(history["stepSeconds"] == 20);
  REQUIRE(history["gpus"].size() == 2);
  CHECK(history["gpus"][1]["underThresholdSince"] == "2024-05-01T09:56:40Z");
  CHECK(history["gpus"][1]["points"][30] == json::array({1714557600, 2.0}));
  prom->verify();
}

TEST_CASE("top job NAME without Prometheus: N/A, one line on stderr, gpuMetrics null in JSON") {
  Harness h;
  stub_pytorch_dist(*h.client);
  h.run({"top", "job", "pytorch-dist", "-o", "json"});
  CHECK(h.err() == "GPU metrics unavailable: no Prometheus found in the cluster\n");
  CHECK(json::parse(h.out())["instances"][0]["gpuMetrics"].is_null());
}

TEST_CASE("top node with Prometheus: GPU(Util) per node and the cluster's average; -d lists each GPU") {
  using trainctl::metrics::MetricsSource;
  const std::string prefix = "/api/v1/namespaces/monitoring/services/prometheus-server:9090/proxy";
  auto prom = std::make_shared<trainctl::testing::FakeClient>();
  // Arena's exporter on node .4 (both GPUs held by pods a and b) and node .6 (GPU 0 by c).
  auto arena = [](const char* name, const char* node, const char* gpu, const char* pod, double v, bool window = false) {
    json j = {{"metric",
               {{"__name__", name}, {"node_name", node}, {"minor_number", gpu}, {"pod_name", pod},
                {"namespace_name", "default"}}},
              {"value", {1714557600.0, fmt_number(v)}}};
    if (window) j["metric"]["trainctl_max_over"] = "600s";
    return j;
  };
  const json answer = {
      {"status", "success"},
      {"data",
       {{"resultType", "vector"},
        {"result", json::array({arena("nvidia_gpu_duty_cycle", "cn-huhehaote.192.168.0.4", "0", "a", 90),
                                arena("nvidia_gpu_duty_cycle", "cn-huhehaote.192.168.0.4", "1", "b", 50),
                                arena("nvidia_gpu_memory_used_bytes", "cn-huhehaote.192.168.0.4", "0", "a", 4294967296.0),
                                arena("nvidia_gpu_memory_total_bytes", "cn-huhehaote.192.168.0.4", "0", "a", 17179869184.0),
                                arena("nvidia_gpu_duty_cycle", "cn-huhehaote.192.168.0.6", "0", "c", 10),
                                // Over the last 10 minutes: b and c never reached 5 %.
                                arena("nvidia_gpu_duty_cycle", "cn-huhehaote.192.168.0.4", "0", "a", 95, true),
                                arena("nvidia_gpu_duty_cycle", "cn-huhehaote.192.168.0.4", "1", "b", 4, true),
                                arena("nvidia_gpu_duty_cycle", "cn-huhehaote.192.168.0.6", "0", "c", 0, true)})}}}};
  const std::string path =
      prefix + "/api/v1/query" +
      trainctl::kube::Query().add("query", trainctl::metrics::node_gpu_query({}, 600)).add("timeout", "5s").encode();
  for (int n = 0; n < 2; ++n) prom->on_get(path, answer);
  // -d: the range query of every node's GPUs; b's GPU stayed at 4 %, a's at 80 % from 09:55.
  auto range_of = [](const char* gpu, const char* pod, double v, int from) {
    json values = json::array();
    for (int i = from; i <= 30; ++i) values.push_back({1714557000 + 20 * i, fmt_number(v)});
    return json{{"metric",
                 {{"__name__", "nvidia_gpu_duty_cycle"}, {"node_name", "cn-huhehaote.192.168.0.4"}, {"minor_number", gpu},
                  {"pod_name", pod}, {"namespace_name", "default"}}},
                {"values", values}};
  };
  prom->on_get(prefix + "/api/v1/query_range" +
                   trainctl::kube::Query()
                       .add("query", trainctl::metrics::node_utilization_query({}))
                       .add("start", "1714557000")
                       .add("end", "1714557600")
                       .add("step", "20")
                       .add("timeout", "5s")
                       .encode(),
               {{"status", "success"},
                {"data",
                 {{"resultType", "matrix"},
                  {"result", json::array({range_of("0", "a", 80, 15), range_of("1", "b", 4, 0)})}}}});
  const json pods = json::array({gpu_pod("a", "cn-huhehaote.192.168.0.4", 1), gpu_pod("b", "cn-huhehaote.192.168.0.4", 1),
                                 gpu_pod("c", "cn-huhehaote.192.168.0.6", 1)});

  Harness h;
  h.client->on_get(kNodes, trainctl::testing::FakeClient::list(seed_nodes()));
  h.client->on_get(kActivePods, trainctl::testing::FakeClient::list(pods));
  h.factory.set_metrics_source({MetricsSource(prom, prefix, "Prometheus", std::chrono::seconds(5)), ""});
  h.run({"top", "node"});
  CHECK(h.out() ==
        "NAME                      IPADDRESS    ROLE    STATUS  GPU(Total)  GPU(Allocated)  GPU(Util)  GPU(Idle)\n"
        "cn-huhehaote.192.168.0.1  192.168.0.1  master  ready   0           0               N/A        0\n"
        "cn-huhehaote.192.168.0.2  192.168.0.2  master  ready   0           0               N/A        0\n"
        "cn-huhehaote.192.168.0.3  192.168.0.3  master  ready   0           0               N/A        0\n"
        "cn-huhehaote.192.168.0.4  192.168.0.4  <none>  ready   2           2               70.0%      1\n"
        "cn-huhehaote.192.168.0.5  192.168.0.5  <none>  ready   2           0               N/A        0\n"
        "cn-huhehaote.192.168.0.6  192.168.0.6  <none>  ready   2           1               10.0%      1\n"
        "-----------------------------------------------------------------------------------------\n"
        "Allocated/Total GPUs In Cluster:\n"
        "3/6 (50%)\n"
        "Average GPU Utilization In Cluster:\n"
        "50.0% (3 GPUs)\n"
        "Idle/Allocated GPUs: 2/3 (under 5% for the last 10m)\n");

  Harness d;
  d.client->on_get(kNodes, trainctl::testing::FakeClient::list(seed_nodes()));
  d.client->on_get(kActivePods, trainctl::testing::FakeClient::list(pods));
  d.factory.set_metrics_source({MetricsSource(prom, prefix, "Prometheus", std::chrono::seconds(5)), ""});
  d.run({"top", "node", "-d"});
  INFO(d.out());
  CHECK(d.out().find("GPUs:\n"
                     "  INDEX  DUTY_CYCLE  MEMORY(Used/Total GiB)  INSTANCE   IDLE\n"
                     "  0      90.0%       4.0/16.0                default/a  no\n"
                     "  1      50.0%       N/A                     default/b  yes\n"
                     "  GPU utilisation, last 10m (20s a column, 0-100%):\n"
                     "  POD        GPU  UTILISATION                      MIN    MEAN   MAX    UNDER 5%\n"
                     "  default/a  0                   ****************  80.0%  80.0%  80.0%  -\n"
                     "  default/b  1    _______________________________  4.0%   4.0%   4.0%   10m+\n") != std::string::npos);
  prom->verify();
}

TEST_CASE("top node -d: a GPU whose pod label names a pod without GPUs (the exporter's, a target label) is free") {
  using trainctl::metrics::MetricsSource;
  const std::string prefix = "/api/v1/namespaces/monitoring/services/prometheus-server:9090/proxy";
  auto prom = std::make_shared<trainctl::testing::FakeClient>();
  // dcgm-exporter scraped under honor_labels: false: GPU 0 held by pod a (exported_pod), GPU 1
  // free, so its series carries only the target's pod and namespace, the exporter's own.
  auto dcgm = [](const char* gpu, bool held) {
    json m = {{"__name__", "DCGM_FI_DEV_GPU_UTIL"}, {"gpu", gpu}, {"Hostname", "cn-huhehaote.192.168.0.4"},
              {"pod", "nvidia-dcgm-exporter-x7k2p"}, {"namespace", "gpu-operator"}};
    if (held) m.update({{"exported_pod", "a"}, {"exported_namespace", "default"}});
    return m;
  };
  prom->on_get(prefix + "/api/v1/query" +
                   trainctl::kube::Query().add("query", trainctl::metrics::node_gpu_query({}, 600)).add("timeout", "5s").encode(),
               {{"status", "success"},
                {"data",
                 {{"resultType", "vector"},
                  {"result", json::array({{{"metric", dcgm("0", true)}, {"value", {1714557600.0, "90"}}},
                                          {{"metric", dcgm("1", false)}, {"value", {1714557600.0, "0"}}}})}}}});
  prom->on_get(prefix + "/api/v1/query_range" +
                   trainctl::kube::Query()
                       .add("query", trainctl::metrics::node_utilization_query({}))
                       .add("start", "1714557000")
                       .add("end", "1714557600")
                       .add("step", "20")
                       .add("timeout", "5s")
                       .encode(),
               {{"status", "success"},
                {"data",
                 {{"resultType", "matrix"},
                  {"result", json::array({{{"metric", dcgm("1", false)}, {"values", {{1714557600, "0"}}}}})}}}});
  Harness d;
  d.client->on_get(kNodes, trainctl::testing::FakeClient::list(seed_nodes()));
  d.client->on_get(kActivePods, trainctl::testing::FakeClient::list(json::array(
                                    {gpu_pod("a", "cn-huhehaote.192.168.0.4", 1),
                                     gpu_pod("nvidia-dcgm-exporter-x7k2p", "cn-huhehaote.192.168.0.4", 0)})));
  d.factory.set_metrics_source({MetricsSource(prom, prefix, "Prometheus", std::chrono::seconds(5)), ""});
  d.run({"top", "node", "-d"});
  INFO(d.out());
  CHECK(d.out().find("  0      90.0%       N/A                     default/a  N/A\n"
                     "  1      0.0%        N/A                     N/A        N/A\n") != std::string::npos);
  CHECK(d.out().find("  POD  GPU  UTILISATION                      MIN   MEAN  MAX   UNDER 5%\n"
                     "  -    1                                  _  0.0%  0.0%  0.0%  0s\n") != std::string::npos);
  prom->verify();
}
