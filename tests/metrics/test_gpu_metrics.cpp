// GPU series of both exporter families, as docs/metrics.md lists their names, units and labels.
#include <catch2/catch.hpp>

#include "metrics/gpu_metrics.h"
#include "metrics/gpu_queries.h"

using namespace trainctl::metrics;

namespace {

Series series(std::map<std::string, std::string> labels, double v) {
  Series s;
  s.labels = std::move(labels);
  s.points = {{1700000000.0, v}};
  return s;
}

constexpr double kGiB = 1073741824.0;

}  // namespace

TEST_CASE("DCGM: utilisation %, framebuffer MiB to bytes, total = used + free + reserved", "[metrics][gpu]") {
  const std::map<std::string, std::string> base = {
      {"gpu", "1"}, {"UUID", "GPU-abc"}, {"Hostname", "gpu-a"}, {"exported_pod", "job-worker-0"},
      {"exported_namespace", "team-a"}, {"pod", "dcgm-exporter-x7"}, {"namespace", "gpu-operator"}};
  auto with = [&](const char* name) {
    auto l = base;
    l["__name__"] = name;
    return l;
  };
  const auto gpus = gpu_metrics({series(with("DCGM_FI_DEV_GPU_UTIL"), 87), series(with("DCGM_FI_DEV_FB_USED"), 1024),
                                 series(with("DCGM_FI_DEV_FB_FREE"), 3008), series(with("DCGM_FI_DEV_FB_RESERVED"), 64),
                                 series(with("DCGM_FI_DEV_POWER_USAGE"), 250)});
  REQUIRE(gpus.size() == 1);
  const GpuMetric& g = gpus[0];
  CHECK(g.exporter == Exporter::Dcgm);
  CHECK(g.node == "gpu-a");
  CHECK(g.gpu == "1");
  CHECK(g.uuid == "GPU-abc");
  // exported_* name the job's pod; pod/namespace are the exporter's own.
  CHECK(g.pod == "job-worker-0");
  CHECK(g.ns == "team-a");
  CHECK(*g.utilization == 87);
  CHECK(*g.memory_used == 1 * kGiB);
  CHECK(*g.memory_total == 4 * kGiB);
}

TEST_CASE("DCGM label variants: plain pod/namespace, -o pod_name/pod_namespace, lower-case hostname",
          "[metrics][gpu]") {
  auto gpus = gpu_metrics({series({{"__name__", "DCGM_FI_DEV_GPU_UTIL"}, {"gpu", "0"}, {"hostname", "n1"},
                                   {"pod", "p"}, {"namespace", "ns"}}, 5)});
  REQUIRE(gpus.size() == 1);
  CHECK(gpus[0].node == "n1");
  CHECK(gpus[0].pod == "p");
  CHECK(gpus[0].ns == "ns");
  CHECK_FALSE(gpus[0].memory_total.has_value());  // no FB series: unknown, not zero
  gpus = gpu_metrics({series({{"__name__", "DCGM_FI_DEV_GPU_UTIL"}, {"gpu", "0"}, {"Hostname", "n1"},
                              {"pod_name", "q"}, {"pod_namespace", "ns2"}}, 5)});
  REQUIRE(gpus.size() == 1);
  CHECK(gpus[0].pod == "q");
  CHECK(gpus[0].ns == "ns2");
}

TEST_CASE("DCGM on MIG: one entry per instance, utilisation from GR_ENGINE_ACTIVE x 100", "[metrics][gpu]") {
  auto mig = [](const char* name, const char* instance, double v) {
    return series({{"__name__", name}, {"gpu", "0"}, {"Hostname", "a100"}, {"GPU_I_ID", instance},
                   {"GPU_I_PROFILE", "1g.10gb"}}, v);
  };
  const auto gpus = gpu_metrics({mig("DCGM_FI_PROF_GR_ENGINE_ACTIVE", "1", 0.25), mig("DCGM_FI_PROF_GR_ENGINE_ACTIVE", "2", 0.0),
                                 mig("DCGM_FI_DEV_FB_USED", "1", 2048), mig("DCGM_FI_DEV_FB_FREE", "1", 7680)});
  REQUIRE(gpus.size() == 2);
  CHECK(gpus[0].exporter == Exporter::DcgmMig);
  CHECK(gpus[0].mig_instance == "1");
  CHECK(*gpus[0].utilization == 25);
  CHECK(*gpus[0].memory_total == 9728 * 1048576.0);
  CHECK(*gpus[1].utilization == 0);
  CHECK_FALSE(gpus[1].memory_used.has_value());
}

TEST_CASE("Arena's exporter: duty cycle %, memory in bytes, node_name/pod_name/minor_number", "[metrics][gpu]") {
  const std::map<std::string, std::string> l = {{"node_name", "cn-beijing.192.168.0.1"}, {"minor_number", "3"},
                                                {"pod_name", "tf-dist-worker-0"}, {"namespace_name", "default"},
                                                {"uuid", "GPU-x"}, {"allocate_mode", "exclusive"}};
  auto with = [&](const char* name) {
    auto m = l;
    m["__name__"] = name;
    return m;
  };
  const auto gpus = gpu_metrics({series(with("nvidia_gpu_duty_cycle"), 42), series(with("nvidia_gpu_memory_used_bytes"), 2 * kGiB),
                                 series(with("nvidia_gpu_memory_total_bytes"), 16 * kGiB)});
  REQUIRE(gpus.size() == 1);
  CHECK(gpus[0].exporter == Exporter::Arena);
  CHECK(gpus[0].node == "cn-beijing.192.168.0.1");
  CHECK(gpus[0].gpu == "3");
  CHECK(gpus[0].pod == "tf-dist-worker-0");
  CHECK(gpus[0].ns == "default");
  CHECK(*gpus[0].utilization == 42);
  CHECK(*gpus[0].memory_used == 2 * kGiB);
  CHECK(*gpus[0].memory_total == 16 * kGiB);
}

TEST_CASE("queries: every label variant in one round, pod names regex-escaped", "[metrics][gpu]") {
  CHECK(regex_escape("a.b-c[0]") == "a\\.b-c\\[0\\]");
  const std::string q = job_gpu_query("team-a", {"job.x-worker-0", "job.x-worker-1"});
  // In a PromQL string the regex's backslash is written twice.
  CHECK(q.find(R"(exported_namespace="team-a", exported_pod=~"job\\.x-worker-0|job\\.x-worker-1")") != std::string::npos);
  CHECK(q.find(R"(namespace="team-a", pod=~")") != std::string::npos);
  CHECK(q.find(R"(pod_namespace="team-a", pod_name=~")") != std::string::npos);
  CHECK(q.find(R"(__name__=~"nvidia_gpu_duty_cycle|nvidia_gpu_memory_used_bytes|nvidia_gpu_memory_total_bytes", pod_name=~")") !=
        std::string::npos);
  CHECK(node_gpu_query({}).find(R"(Hostname=~".+")") != std::string::npos);
  CHECK(node_gpu_query({"gpu-a"}).find(R"(node_name=~"gpu-a")") != std::string::npos);
}

TEST_CASE("the max-utilisation query renames each arm back to its metric and labels it", "[metrics][gpu]") {
  CHECK(max_utilization_query(600) ==
        R"(label_replace(label_replace(max_over_time(DCGM_FI_DEV_GPU_UTIL[600s]), "__name__", "DCGM_FI_DEV_GPU_UTIL", "__name__", ".*"), "trainctl_max_over", "600s", "__name__", ".*"))"
        R"( or label_replace(label_replace(max_over_time(DCGM_FI_PROF_GR_ENGINE_ACTIVE[600s]), "__name__", "DCGM_FI_PROF_GR_ENGINE_ACTIVE", "__name__", ".*"), "trainctl_max_over", "600s", "__name__", ".*"))"
        R"( or label_replace(label_replace(max_over_time(nvidia_gpu_duty_cycle[600s]), "__name__", "nvidia_gpu_duty_cycle", "__name__", ".*"), "trainctl_max_over", "600s", "__name__", ".*"))");
}

TEST_CASE("with an idle window, the job and node queries carry each variant's window arms", "[metrics][gpu]") {
  const std::string plain = job_gpu_query("team-a", {"j-worker-0"});
  const std::string q = job_gpu_query("team-a", {"j-worker-0"}, 1800);
  // The instant arms first, unchanged; then one window arm per utilisation metric and variant.
  REQUIRE(q.rfind(plain + " or ", 0) == 0);
  CHECK(q.find(R"(max_over_time(DCGM_FI_DEV_GPU_UTIL{exported_namespace="team-a", exported_pod=~"j-worker-0"}[1800s]))") !=
        std::string::npos);
  CHECK(q.find(R"(max_over_time(DCGM_FI_PROF_GR_ENGINE_ACTIVE{pod_namespace="team-a", pod_name=~"j-worker-0"}[1800s]))") !=
        std::string::npos);
  CHECK(q.find(R"(max_over_time(nvidia_gpu_duty_cycle{pod_name=~"j-worker-0"}[1800s]))") != std::string::npos);
  size_t arms = 0;
  for (size_t at = q.find("max_over_time("); at != std::string::npos; at = q.find("max_over_time(", at + 1)) ++arms;
  CHECK(arms == 7);  // 3 DCGM variants x 2 metrics + Arena's duty cycle
  const std::string n = node_gpu_query({"gpu-a"}, 600);
  CHECK(n.find(R"(max_over_time(DCGM_FI_DEV_GPU_UTIL{hostname=~"gpu-a"}[600s]))") != std::string::npos);
  CHECK(n.find(R"(max_over_time(nvidia_gpu_duty_cycle{node_name=~"gpu-a"}[600s]))") != std::string::npos);
}

TEST_CASE("window series set the highest utilisation beside the current values of the same GPU", "[metrics][gpu]") {
  const std::map<std::string, std::string> dcgm = {{"gpu", "0"}, {"Hostname", "gpu-a"}, {"pod", "p"}, {"namespace", "ns"}};
  auto with = [](std::map<std::string, std::string> l, const char* name, bool window) {
    l["__name__"] = name;
    if (window) l[kWindowMaxLabel] = "600s";
    return l;
  };
  auto mig = dcgm;
  mig["gpu"] = "1";
  mig["GPU_I_ID"] = "3";
  const std::map<std::string, std::string> arena = {{"node_name", "gpu-b"}, {"minor_number", "2"}, {"pod_name", "q"}};
  const auto gpus = gpu_metrics({series(with(dcgm, "DCGM_FI_DEV_GPU_UTIL", false), 40),
                                 series(with(dcgm, "DCGM_FI_DEV_GPU_UTIL", true), 97),
                                 series(with(mig, "DCGM_FI_PROF_GR_ENGINE_ACTIVE", false), 0.02),
                                 series(with(mig, "DCGM_FI_PROF_GR_ENGINE_ACTIVE", true), 0.03),
                                 series(with(arena, "nvidia_gpu_duty_cycle", true), 1.5)});
  REQUIRE(gpus.size() == 3);
  // Ordered by exporter (Arena, DCGM, DCGM MIG), as gpu_metrics() documents.
  CHECK(gpus[0].exporter == Exporter::Arena);
  CHECK_FALSE(gpus[0].utilization.has_value());  // only the window series came back
  CHECK(*gpus[0].max_utilization == 1.5);
  CHECK(*gpus[1].utilization == 40);
  CHECK(*gpus[1].max_utilization == 97);
  CHECK(gpus[2].exporter == Exporter::DcgmMig);
  CHECK(*gpus[2].utilization == Approx(2.0));
  CHECK(*gpus[2].max_utilization == Approx(3.0));
}

TEST_CASE("a GPU seen only in the window arms (its series went stale) is left out", "[metrics][gpu]") {
  // GPU 0 was free (the exporter pod's target labels) until a job's pod took it: its old series
  // is in max_over_time over the window, not in the instant arms.
  auto labels = [](const char* pod, bool window) {
    std::map<std::string, std::string> l = {{"__name__", "DCGM_FI_DEV_GPU_UTIL"}, {"gpu", "0"}, {"Hostname", "gpu-a"},
                                            {"pod", pod}, {"namespace", "default"}};
    if (window) l[kWindowMaxLabel] = "600s";
    return l;
  };
  const auto gpus = gpu_metrics({series(labels("train-0", false), 90), series(labels("train-0", true), 95),
                                 series(labels("nvidia-dcgm-exporter-x7k2p", true), 0)});
  REQUIRE(gpus.size() == 1);
  CHECK(gpus[0].pod == "train-0");
  CHECK(gpus[0].max_utilization == 95.0);
}
