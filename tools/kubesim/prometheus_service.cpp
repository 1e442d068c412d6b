// The Service of kubesim's simulated Prometheus (prometheus_options.h).
#include <stdexcept>

#include "kubesim/gpu_series.h"
#include "kubesim/prometheus_options.h"
#include "kubesim/seed_objects.h"
#include "kubesim/store.h"

namespace kubesim {

void check_prometheus_exporter(const std::string& exporter) {
  if (exporter != "dcgm" && exporter != "dcgm-exported" && exporter != kDcgmBefore316 && exporter != "arena")
    throw std::invalid_argument("prometheus exporter must be dcgm, dcgm-exported, " + std::string(kDcgmBefore316) +
                                " or arena, not \"" + exporter + "\"");
}

namespace {

// gpu-operator's dcgm-exporter DaemonSet pods (assets/state-dcgm-exporter/0800_daemonset.yaml:
// label app=nvidia-dcgm-exporter, container nvidia-dcgm-exporter, port 9400), one on each node
// with GPUs, Running as the kubelet leaves a pod that runs forever, each with a pod IP.
void install_exporter_pods(Store& store) {
  const ResourceType* ns_rt = store.find("", "v1", "namespaces");
  const ResourceType* nodes_rt = store.find("", "v1", "nodes");
  const ResourceType* pods_rt = store.find("", "v1", "pods");
  if (!ns_rt || !nodes_rt || !pods_rt) return;
  if (!store.get(*ns_rt, "", kExporterNamespace)) store.create(*ns_rt, make_namespace(kExporterNamespace));
  int k = 0;
  for (const auto& n : store.list(*nodes_rt, "").items) {
    const json capacity = n->value("status", json::object()).value("capacity", json::object());
    if (!capacity.contains("nvidia.com/gpu")) continue;
    const std::string node = (*n)["metadata"].value("name", "");
    const std::string name = exporter_pod(node);
    if (store.get_shared(*pods_rt, kExporterNamespace, name)) continue;
    const std::string ip = "10.233." + std::to_string(k / 250) + "." + std::to_string(k % 250 + 2);
    ++k;
    store.create(
        *pods_rt,
        {{"apiVersion", "v1"},
         {"kind", "Pod"},
         {"metadata",
          {{"name", name},
           {"namespace", kExporterNamespace},
           {"labels", {{"app", "nvidia-dcgm-exporter"}}},
           {"annotations", {{"kubesim.trainctl.io/outcome", "run-forever"}}}}},
         {"spec",
          {{"nodeName", node},
           {"containers", json::array({{{"name", "nvidia-dcgm-exporter"},
                                         {"image", "nvcr.io/nvidia/k8s/dcgm-exporter:3.1.3-3.1.2-ubuntu20.04"},
                                         {"ports", json::array({{{"name", "metrics"}, {"containerPort", 9400}}})}}})}}},
         {"status",
          {{"phase", "Running"},
           {"podIP", ip},
           {"podIPs", json::array({{{"ip", ip}}})},
           {"conditions", json::array({{{"type", "Ready"}, {"status", "True"}}})}}}});
  }
}

}  // namespace

void install_prometheus_service(Store& store, const PrometheusOptions& options) {
  if (options.exporter == kDcgmBefore316) install_exporter_pods(store);
  const ResourceType* ns_rt = store.find("", "v1", "namespaces");
  const ResourceType* svc_rt = store.find("", "v1", "services");
  if (!ns_rt || !svc_rt) return;
  if (!store.get(*ns_rt, "", options.ns)) store.create(*ns_rt, make_namespace(options.ns));
  if (store.get(*svc_rt, options.ns, options.service)) return;
  const json labels = {{"kubernetes.io/service-name", options.service},
                       {"app.kubernetes.io/name", "prometheus"}};
  store.create(
      *svc_rt,
      {{"apiVersion", "v1"},
       {"kind", "Service"},
       {"metadata", {{"name", options.service}, {"namespace", options.ns}, {"labels", labels}}},
       {"spec",
        {{"type", "ClusterIP"},
         {"selector", {{"app.kubernetes.io/name", "prometheus"}}},
         {"ports",
          json::array(
              {{{"name", "http"}, {"port", options.port}, {"protocol", "TCP"}, {"targetPort", 9090}}})}}}});
}

}  // namespace kubesim
