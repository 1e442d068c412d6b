// The kube-apiserver service proxy, /api/v1/namespaces/NS/services/[SCHEME:]NAME[:PORT]/proxy/PATH,
// to the address of a Service's Endpoints (service_forward.h), or, for a Service without
// Endpoints, kubesim's simulated Prometheus (prometheus_options.h); every other Service answers
// as one without endpoints.
#pragma once

#include <httplib.h>

#include <cstdint>
#include <optional>
#include <string>

#include "kubesim/prometheus_options.h"

namespace kubesim {

class Store;

struct ServiceProxyPath {
  std::string ns;
  std::string id;    // [SCHEME:]NAME[:PORT]
  std::string rest;  // the path after /proxy, without its leading '/'
};

// nullopt when path is not a service proxy path.
std::optional<ServiceProxyPath> parse_service_proxy_path(const std::string& path);

// Answers the request (errors as metav1.Status, Prometheus' answers as they are).
void serve_service_proxy(const Store& store, const PrometheusOptions& prometheus, int64_t now_ms,
                         const ServiceProxyPath& path, const httplib::Request& req, httplib::Response& res);

}  // namespace kubesim
