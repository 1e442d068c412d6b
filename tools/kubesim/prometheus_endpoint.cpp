// A real Prometheus behind the Prometheus Service (prometheus_options.h
// install_prometheus_endpoint): its pod and the Endpoints the service proxy reads
// (service_forward.h). The Endpoints are those kubernetes' endpoints controller writes for a
// ready pod (pkg/controller/endpoint/endpoints_controller.go: the address with a targetRef to the
// pod, the Service port's name with the target port's number).
#include <stdexcept>

#include "kubesim/prometheus_options.h"
#include "kubesim/store.h"

namespace kubesim {

void install_prometheus_endpoint(Store& store, const PrometheusOptions& options) {
  if (options.endpoint.empty()) return;
  const auto colon = options.endpoint.rfind(':');
  const std::string host = colon == std::string::npos ? "" : options.endpoint.substr(0, colon);
  const std::string port_text = colon == std::string::npos ? "" : options.endpoint.substr(colon + 1);
  int port = 0;
  try {
    port = std::stoi(port_text);
  } catch (const std::exception&) {
  }
  if (host.empty() || port <= 0 || port > 65535 || port_text.find_first_not_of("0123456789") != std::string::npos)
    throw std::invalid_argument("prometheus endpoint must be HOST:PORT, not \"" + options.endpoint + "\"");
  const std::string ip = host.front() == '[' && host.back() == ']' ? host.substr(1, host.size() - 2) : host;
  const ResourceType* pods = store.find("", "v1", "pods");
  const ResourceType* endpoints = store.find("", "v1", "endpoints");
  if (!pods || !endpoints) return;
  const std::string pod = options.service + "-0";
  std::string node;  // the first node, where the kubelet keeps it running
  if (const ResourceType* nodes = store.find("", "v1", "nodes")) {
    auto all = store.list(*nodes, "").items;
    if (!all.empty()) node = (*all.front())["metadata"].value("name", "");
  }
  if (!store.get_shared(*pods, options.ns, pod))
    store.create(*pods,
                 {{"apiVersion", "v1"},
                  {"kind", "Pod"},
                  {"metadata",
                   {{"name", pod},
                    {"namespace", options.ns},
                    {"labels", {{"app.kubernetes.io/name", "prometheus"}}},
                    {"annotations", {{"kubesim.trainctl.io/outcome", "run-forever"}}}}},
                  {"spec",
                   {{"nodeName", node},
                    {"containers", json::array({{{"name", "prometheus"},
                                                 {"image", "quay.io/prometheus/prometheus:v2.42.0"},
                                                 {"ports", json::array({{{"name", "http"},
                                                                         {"containerPort", port}}})}}})}}},
                  {"status",
                   {{"phase", "Running"},
                    {"podIP", ip},
                    {"podIPs", json::array({{{"ip", ip}}})},
                    {"conditions", json::array({{{"type", "Ready"}, {"status", "True"}}})}}}});
  if (store.get_shared(*endpoints, options.ns, options.service)) return;
  store.create(*endpoints,
               {{"apiVersion", "v1"},
                {"kind", "Endpoints"},
                {"metadata", {{"name", options.service}, {"namespace", options.ns}}},
                {"subsets",
                 json::array({{{"addresses", json::array({{{"ip", ip},
                                                            {"targetRef",
                                                             {{"kind", "Pod"},
                                                              {"namespace", options.ns},
                                                              {"name", pod}}}}})},
                               {"ports", json::array({{{"name", "http"}, {"port", port}, {"protocol", "TCP"}}})}}})}});
}

}  // namespace kubesim
