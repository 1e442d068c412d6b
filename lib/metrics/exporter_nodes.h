// Which node a DCGM series is about, when its Hostname label does not say. dcgm-exporter sets
// Hostname to os.Hostname() up to 3.1.3-3.1.2 (NVIDIA/dcgm-exporter
// pkg/dcgmexporter/gpu_collector.go NewDCGMCollector): in a pod off the host network that is
// the exporter pod's own name (nvidia-dcgm-exporter-x7k2p). From 3.1.6-3.1.3 it reads NODE_NAME
// first, which its chart (deployment/templates/daemonset.yaml) and gpu-operator's DaemonSet
// (assets/state-dcgm-exporter/0800_daemonset.yaml) set from spec.nodeName; 4.5.3-4.8.2 renames
// the label `hostname`. For the older ones the node is the exporter pod's spec.nodeName, found
// by the pod's name, or by the address in the series' `instance` label (the pod's IP, or a
// node's InternalIP where Prometheus scrapes nodes).
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "kube/client.h"
#include "metrics/gpu_metrics.h"

namespace trainctl::metrics {

// The exporter pods: name -> node and pod IP -> node.
struct ExporterPods {
  std::map<std::string, std::string> node_of_pod;
  std::map<std::string, std::string> node_of_ip;
};

// The label selectors of dcgm-exporter's pods: gpu-operator's DaemonSet (app=nvidia-dcgm-exporter)
// and dcgm-exporter's chart (app.kubernetes.io/name=dcgm-exporter).
const std::vector<std::string>& exporter_pod_selectors();

// One LIST of the pods of every namespace per selector, sent together. A refused read (403)
// leaves its pods out.
ExporterPods read_exporter_pods(kube::Client& client);

// Whether a DCGM GPU names a node that is none of `nodes`.
bool unplaced(const GpuMetric& g, const std::set<std::string>& nodes);

// Sets the node of each unplaced DCGM GPU to its exporter pod's node (its Hostname is the pod's
// name), else to the node its instance address belongs to (an exporter pod's IP, else a node's
// InternalIP in `node_ips`: IP -> node). Returns how many it placed.
size_t place_on_nodes(std::vector<GpuMetric>& gpus, const std::set<std::string>& nodes, const ExporterPods& pods,
                      const std::map<std::string, std::string>& node_ips);

}  // namespace trainctl::metrics
