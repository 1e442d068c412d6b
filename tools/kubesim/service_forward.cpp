// Service proxy forwarding (service_forward.h).
#include "kubesim/service_forward.h"

#include <arpa/inet.h>
#include <strings.h>

#include <random>

#include "kubesim/rest.h"
#include "kubesim/store.h"

namespace kubesim {

namespace {

StatusError forward_unavailable(const std::string& message) { return StatusError(503, "ServiceUnavailable", message); }

bool valid_address(const Store& store, const std::string& ns, const json& addr) {
  const json ref = addr.value("targetRef", json());
  if (!ref.is_object() || ref.value("namespace", "") != ns) return false;
  const ResourceType* pods = store.find("", "v1", "pods");
  auto pod = pods ? store.get_shared(*pods, ns, ref.value("name", "")) : nullptr;
  if (!pod) return false;
  for (const auto& ip : pod->value("status", json::object()).value("podIPs", json::array()))
    if (ip.value("ip", "") == addr.value("ip", "")) return true;
  return false;
}

bool one_of(const std::string& k, std::initializer_list<const char*> names) {
  for (const char* n : names)
    if (strcasecmp(k.c_str(), n) == 0) return true;
  return false;
}

bool loopback(const std::string& ip) {
  in_addr v4{};
  if (inet_pton(AF_INET, ip.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  return ip == "::1";
}

}  // namespace

std::optional<EndpointLocation> endpoint_location(const Store& store, const std::string& ns, const std::string& name,
                                                  const std::string& port_name, const std::string& scheme) {
  const ResourceType* endpoints = store.find("", "v1", "endpoints");
  auto eps = endpoints ? store.get_shared(*endpoints, ns, name) : nullptr;
  if (!eps) return std::nullopt;
  const json subsets = eps->value("subsets", json::array());
  static thread_local std::mt19937 rng{std::random_device{}()};
  const size_t n = subsets.size();
  const size_t seed = n ? rng() % n : 0;
  for (size_t i = 0; i < n; ++i) {
    const json& ss = subsets[(seed + i) % n];
    const json addrs = ss.value("addresses", json::array());
    if (addrs.empty()) continue;
    for (const auto& p : ss.value("ports", json::array())) {
      if (p.value("name", "") != port_name) continue;
      const size_t aseed = rng() % addrs.size();
      for (size_t k = 0; k < addrs.size(); ++k) {
        const json& a = addrs[(aseed + k) % addrs.size()];
        if (!valid_address(store, ns, a)) continue;
        return EndpointLocation{scheme.empty() ? "http" : scheme, a.value("ip", ""), p.value("port", 0)};
      }
    }
  }
  throw forward_unavailable("no endpoints available for service \"" + name + "\"");
}

void forward_to_endpoint(const EndpointLocation& loc, const std::string& rest, const httplib::Request& req,
                         httplib::Response& res) {
  const std::string host = loc.ip.find(':') != std::string::npos ? "[" + loc.ip + "]" : loc.ip;
  const std::string dial = "dial tcp " + host + ":" + std::to_string(loc.port);
  if (!loopback(loc.ip)) throw forward_unavailable("error trying to reach service: " + dial + ": connect: no route to host");
  std::unique_ptr<httplib::ClientImpl> cli;
  if (loc.scheme == "https") {
    auto ssl = std::make_unique<httplib::SSLClient>(loc.ip, loc.port);
    ssl->enable_server_certificate_verification(false);  // the proxy transport does not verify
    cli = std::move(ssl);
  } else {
    cli = std::make_unique<httplib::ClientImpl>(loc.ip, loc.port);
  }
  cli->set_connection_timeout(5);
  cli->set_read_timeout(60);
  cli->set_decompress(false);
  const size_t q = req.target.find('?');
  httplib::Request out;
  out.method = req.method;
  out.path = "/" + rest + (q == std::string::npos ? "" : req.target.substr(q));
  for (const auto& [k, v] : req.headers) {
    if (one_of(k, {"Authorization", "Host", "Content-Length", "Connection", "Accept-Encoding"}) || k.rfind("REMOTE_", 0) == 0 ||
        k.rfind("LOCAL_", 0) == 0)
      continue;
    out.headers.emplace(k, v);
  }
  out.body = req.body;
  httplib::Response answer;
  httplib::Error err = httplib::Error::Success;
  if (!cli->send(out, answer, err)) {
    const std::string why = err == httplib::Error::Connection ? "connect: connection refused" : httplib::to_string(err);
    throw forward_unavailable("error trying to reach service: " + dial + ": " + why);
  }
  res.status = answer.status;
  for (const auto& [k, v] : answer.headers) {
    if (one_of(k, {"Content-Length", "Transfer-Encoding", "Connection", "Content-Type"}))
      continue;
    res.set_header(k, v);
  }
  res.set_content(answer.body, answer.get_header_value("Content-Type"));
}

}  // namespace kubesim
