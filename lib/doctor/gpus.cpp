// GPUs the nodes offer (docs/doctor.md, "GPUs"): whole NVIDIA GPUs (nvidia.com/gpu; MIG
// devices under GPU feature discovery's single strategy, node label nvidia.com/mig.strategy),
// MIG devices of the mixed strategy (nvidia.com/mig-<profile>; NVIDIA k8s-device-plugin
// README, "MIG support"), ACK's shared GPUs (aliyun.com/gpu-mem in GiB with
// aliyun.com/gpu-count, the gpushare device plugin) and topology-aware GPUs (aliyun.com/gpu),
// as node_usage.h tells a node's GPU mode.
#include <map>

#include "doctor/checks.h"
#include "jobs/gpu.h"
#include "kube/resource.h"

namespace trainctl::doctor {

namespace {

using nlohmann::json;

struct Tally {
  long long count = 0;
  int nodes = 0;
};

std::string nodes_text(int n) { return std::to_string(n) + (n == 1 ? " node" : " nodes"); }

std::string label_of(const json& node, const std::string& key) {
  const json labels = node.value("metadata", json::object()).value("labels", json::object());
  return labels.is_object() ? labels.value(key, "") : "";
}

}  // namespace

void ask_gpus(Probe& p, const Context&) { p.get("nodes", kube::nodes().collection_path()); }

void judge_gpus(const Probe& p, const Context&, Report& r) {
  const Answer& a = p.answer("nodes");
  if (!a.ok()) {
    r.add({Section::Gpus, "gpu.nodes", "Nodes", Status::Warning, "the nodes could not be listed",
           a.error, "ask the cluster admin for list on nodes (top node needs it too)"});
    return;
  }
  std::map<std::string, Tally> by_resource;
  int mig_single_nodes = 0, nodes = 0;
  for (const auto& node : a.body.value("items", json::array())) {
    if (!node.is_object()) continue;
    ++nodes;
    const json alloc = node.value("status", json::object()).value("allocatable", json::object());
    if (!alloc.is_object()) continue;
    for (auto it = alloc.begin(); it != alloc.end(); ++it) {
      const std::string& res = it.key();
      const bool gpu = res == "nvidia.com/gpu" || res.rfind("nvidia.com/mig-", 0) == 0 ||
                       res == "aliyun.com/gpu-mem" || res == "aliyun.com/gpu-count" || res == "aliyun.com/gpu";
      const long long n = jobs::parse_count(*it);
      if (!gpu || n <= 0) continue;
      by_resource[res].count += n;
      ++by_resource[res].nodes;
    }
    if (label_of(node, "nvidia.com/mig.strategy") == "single" && jobs::parse_count(alloc.value("nvidia.com/gpu", json())) > 0)
      ++mig_single_nodes;
  }
  json all = json::object();
  for (const auto& [res, t] : by_resource) all[res] = {{"allocatable", t.count}, {"nodes", t.nodes}};

  Finding nv{Section::Gpus, "gpu.nvidia", "NVIDIA GPUs"};
  nv.details = {{"nodes", nodes}, {"resources", all}, {"migSingleStrategyNodes", mig_single_nodes}};
  if (const auto it = by_resource.find("nvidia.com/gpu"); it != by_resource.end()) {
    nv.status = Status::Ok;
    nv.result = "nvidia.com/gpu: " + std::to_string(it->second.count) + " on " + nodes_text(it->second.nodes) +
                " (of " + std::to_string(nodes) + ")";
    if (mig_single_nodes > 0)
      nv.result += "; on " + nodes_text(mig_single_nodes) + " they are MIG devices (strategy single)";
  } else if (by_resource.empty()) {
    nv.status = Status::Warning;
    nv.result = "no node offers GPUs (" + nodes_text(nodes) + ")";
    nv.reason = "a job with --gpus stays Pending: no node has nvidia.com/gpu, MIG or ACK GPU resources";
    nv.fix = "install the NVIDIA device plugin (or the gpu-operator) on the GPU nodes";
  } else {
    nv.status = Status::Info;
    nv.result = "no nvidia.com/gpu; the GPUs below are offered instead";
  }
  r.add(std::move(nv));

  std::string mig;
  for (const auto& [res, t] : by_resource)
    if (res.rfind("nvidia.com/mig-", 0) == 0)
      mig += (mig.empty() ? "" : ", ") + res + ": " + std::to_string(t.count) + " on " + nodes_text(t.nodes);
  r.add({Section::Gpus, "gpu.mig", "MIG devices", mig.empty() ? Status::Info : Status::Ok,
         mig.empty() ? "none of the mixed strategy (nvidia.com/mig-<profile>)" : mig + " (mixed strategy)",
         "", mig.empty() ? "" : "request them with --device nvidia.com/mig-<profile>=N"});

  const auto share = by_resource.find("aliyun.com/gpu-mem");
  const auto topo = by_resource.find("aliyun.com/gpu");
  r.add({Section::Gpus, "gpu.ack-share", "ACK shared GPUs", share == by_resource.end() ? Status::Info : Status::Ok,
         share == by_resource.end()
             ? "none (no aliyun.com/gpu-mem)"
             : "aliyun.com/gpu-mem: " + std::to_string(share->second.count) + " GiB on " + nodes_text(share->second.nodes)});
  r.add({Section::Gpus, "gpu.ack-topology", "ACK topology GPUs", topo == by_resource.end() ? Status::Info : Status::Ok,
         topo == by_resource.end()
             ? "none (no aliyun.com/gpu)"
             : "aliyun.com/gpu: " + std::to_string(topo->second.count) + " on " + nodes_text(topo->second.nodes) +
                   " (submit mpi --gputopology)"});
}

}  // namespace trainctl::doctor
