// Service proxy (service_proxy.h). How kube-apiserver resolves the proxied Service:
// kubernetes pkg/registry/core/service/storage/storage.go ResourceLocation splits the id with
// apimachinery pkg/util/net SplitSchemeNamePort ("name", "name:port", "scheme:name:port";
// scheme "", "http" or "https"), else 400 "invalid service request"; reads the Service (404
// NotFound); maps a numeric port to the Service port's name, else 503 "no service port N found
// for service"; and answers 503 "no endpoints available for service" when no endpoint has that
// port. The proxied answer is passed through with its status code
// (staging/src/k8s.io/apimachinery/pkg/util/proxy UpgradeAwareHandler). A Service with
// Endpoints is forwarded to one of them (service_forward.h); one without them is kubesim's
// simulated Prometheus if it is that Service's, else "no endpoints available".
#include "kubesim/service_proxy.h"

#include <map>

#include "kubesim/prometheus_api.h"
#include "kubesim/rest.h"
#include "kubesim/service_forward.h"
#include "kubesim/store.h"

namespace kubesim {

namespace {

std::vector<std::string> split_on(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    const size_t at = s.find(sep, start);
    out.push_back(s.substr(start, at == std::string::npos ? std::string::npos : at - start));
    if (at == std::string::npos) return out;
    start = at + 1;
  }
}

bool all_digits(const std::string& s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
}

StatusError unavailable(const std::string& message) {
  return StatusError(503, "ServiceUnavailable", message);
}

}  // namespace

std::optional<ServiceProxyPath> parse_service_proxy_path(const std::string& path) {
  const std::string prefix = "/api/v1/namespaces/";
  if (path.rfind(prefix, 0) != 0) return std::nullopt;
  const auto segs = split_on(path.substr(prefix.size()), '/');
  if (segs.size() < 4 || segs[1] != "services" || segs[3] != "proxy" || segs[0].empty() || segs[2].empty())
    return std::nullopt;
  ServiceProxyPath p{segs[0], segs[2], ""};
  for (size_t i = 4; i < segs.size(); ++i) p.rest += (i > 4 ? "/" : "") + segs[i];
  return p;
}

void serve_service_proxy(const Store& store, const PrometheusOptions& prometheus, int64_t now_ms,
                         const ServiceProxyPath& path, const httplib::Request& req, httplib::Response& res) {
  const auto parts = split_on(path.id, ':');
  std::string scheme, name, port;
  if (parts.size() == 1) {
    name = parts[0];
  } else if (parts.size() == 2) {
    name = parts[0];
    port = parts[1];
  } else if (parts.size() == 3) {
    scheme = parts[0];
    name = parts[1];
    port = parts[2];
  }
  if (name.empty() || (scheme != "" && scheme != "http" && scheme != "https"))
    throw bad_request("invalid service request \"" + path.id + "\"");
  const ResourceType* services = store.find("", "v1", "services");
  if (!services)
    throw StatusError(404, "NotFound", "the server could not find the requested resource", json::object());
  const auto svc = store.get(*services, path.ns, name);
  if (!svc) throw not_found(*services, name);
  std::string port_name = port;
  if (all_digits(port)) {
    bool found = false;
    for (const auto& p : (*svc)["spec"].value("ports", json::array())) {
      if (std::to_string(p.value("port", 0)) == port) {
        port_name = p.value("name", "");
        found = true;
        break;
      }
    }
    if (!found) throw unavailable("no service port " + port + " found for service \"" + name + "\"");
  }
  if (auto loc = endpoint_location(store, path.ns, name, port_name, scheme)) {
    forward_to_endpoint(*loc, path.rest, req, res);
    return;
  }
  const bool ours = prometheus.enabled && path.ns == prometheus.ns && name == prometheus.service;
  // The simulated Prometheus listens on the port named "http" (also reached without a port).
  if (!ours || (!port_name.empty() && port_name != "http"))
    throw unavailable("no endpoints available for service \"" + name + "\"");
  const std::string api = "api/v1/";
  const std::string endpoint = path.rest.rfind(api, 0) == 0 ? path.rest.substr(api.size()) : "";
  if (req.method != "GET" && req.method != "POST" && (endpoint == "query" || endpoint == "query_range")) {
    res.status = 405;
    res.set_content("Method Not Allowed\n", "text/plain; charset=utf-8");
    return;
  }
  std::map<std::string, std::string> params;
  for (const auto& [k, v] : req.params) params.emplace(k, v);  // the first value of each
  if (req.method == "POST" &&
      req.get_header_value("Content-Type").rfind("application/x-www-form-urlencoded", 0) == 0) {
    httplib::Params form;
    httplib::detail::parse_query_text(req.body, form);
    for (const auto& [k, v] : form) params.emplace(k, v);
  }
  const PrometheusAnswer answer = prometheus_api(store, prometheus.exporter, endpoint, params, now_ms);
  res.status = answer.code;
  res.set_content(answer.body, answer.content_type);
}

}  // namespace kubesim
