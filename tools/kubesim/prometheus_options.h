// The simulated Prometheus of kubesim (docs/kubesim.md, "GPU metrics (Prometheus)"): which
// GPU exporter family its series imitate and the Service the API-server proxy serves it on.
// Set by the seed key "prometheus:" or the flag --prometheus EXPORTER.
#pragma once

#include <string>

namespace kubesim {

class Store;

// dcgm-exporter before 3.1.6: as dcgm-exported, but Hostname is the exporter pod's name and
// instance its pod IP; kubesim makes the exporter pods (namespace gpu-operator, label
// app=nvidia-dcgm-exporter, one on each GPU node) for trainctl to find the nodes by.
inline constexpr const char* kDcgmBefore316 = "dcgm-before-3.1.6";
inline constexpr const char* kExporterNamespace = "gpu-operator";

struct PrometheusOptions {
  bool enabled = false;
  std::string exporter = "dcgm";  // dcgm | dcgm-exported | dcgm-before-3.1.6 | arena
  std::string ns = "monitoring";
  std::string service = "prometheus-server";
  int port = 9090;
  // HOST:PORT of a real Prometheus (seed key endpoint:, --prometheus-endpoint): the Service then
  // has a Prometheus pod with that IP and Endpoints naming it, and the service proxy forwards
  // there instead of answering with the simulated series.
  std::string endpoint;
};

// Throws std::invalid_argument unless exporter is dcgm, dcgm-exported, dcgm-before-3.1.6 or arena.
void check_prometheus_exporter(const std::string& exporter);

// Creates the namespace (if missing) and the Service (labels kubernetes.io/service-name=SERVICE
// and app.kubernetes.io/name=prometheus, port PORT named "http") unless it exists; for
// dcgm-before-3.1.6 also the exporter pods of the nodes with GPUs.
void install_prometheus_service(Store& store, const PrometheusOptions& options);

// With options.endpoint: the Pod NS/SERVICE-0 (Running, podIP HOST, labelled as the Service
// selects) and the Endpoints NS/SERVICE (HOST, port "http" PORT, targetRef that Pod), as
// kube-controller-manager's endpoints controller would write them. Throws
// std::invalid_argument unless the endpoint is HOST:PORT.
void install_prometheus_endpoint(Store& store, const PrometheusOptions& options);

}  // namespace kubesim
