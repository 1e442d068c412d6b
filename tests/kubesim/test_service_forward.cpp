// The service proxy forwards to a Service's Endpoints as kube-apiserver does
// (service_forward.h): the address's targetRef must be a Pod of the namespace with that IP,
// the port is the Endpoints port named as the Service port, the request keeps its method,
// path, query and body but loses its Authorization header; kubesim dials loopback addresses
// only. --prometheus-endpoint's objects (install_prometheus_endpoint) make such a Service.
#include <catch2/catch.hpp>

#include <thread>

#include "kubesim/seed_objects.h"
#include "rest_fixture.h"

using namespace kubesim;
using kubesim::testing::body_json;
using kubesim::testing::SimServer;

namespace {

// A plain HTTP server on 127.0.0.1 that answers with what it received.
struct Backend {
  httplib::Server server;
  std::thread thread;
  int port = 0;
  Backend() {
    auto echo = [](const httplib::Request& req, httplib::Response& res) {
      json params = json::object();
      for (const auto& [k, v] : req.params) params[k] = v;
      res.status = req.path == "/missing" ? 404 : 200;
      res.set_content(json({{"method", req.method},
                            {"path", req.path},
                            {"params", params},
                            {"body", req.body},
                            {"authorization", req.get_header_value("Authorization")}})
                          .dump(),
                      "application/json");
    };
    server.Get(".*", echo);
    server.Post(".*", echo);
    port = server.bind_to_any_port("127.0.0.1");
    thread = std::thread([this] { server.listen_after_bind(); });
    while (!server.is_running()) std::this_thread::yield();
  }
  ~Backend() {
    server.stop();
    thread.join();
  }
};

json pod_at(const std::string& name, const std::string& ip) {
  return {{"apiVersion", "v1"},
          {"kind", "Pod"},
          {"metadata", {{"name", name}, {"namespace", "default"}}},
          {"spec", {{"containers", json::array({{{"name", "c"}, {"image", "x"}}})}}},
          {"status", {{"phase", "Running"}, {"podIP", ip}, {"podIPs", json::array({{{"ip", ip}}})}}}};
}

json endpoints(const std::string& ip, int port, json target_ref) {
  json addr = {{"ip", ip}};
  if (!target_ref.is_null()) addr["targetRef"] = target_ref;
  return {{"apiVersion", "v1"},
          {"kind", "Endpoints"},
          {"metadata", {{"name", "web"}, {"namespace", "default"}}},
          {"subsets", json::array({{{"addresses", json::array({addr})},
                                    {"ports", json::array({{{"name", "http"}, {"port", port}}})}}})}};
}

void add_service(Store& store) {
  store.create(*store.find("", "v1", "services"),
               {{"apiVersion", "v1"},
                {"kind", "Service"},
                {"metadata", {{"name", "web"}, {"namespace", "default"}}},
                {"spec", {{"ports", json::array({{{"name", "http"}, {"port", 80}}})}}}});
}

const json kRef = {{"kind", "Pod"}, {"namespace", "default"}, {"name", "web-0"}};

}  // namespace

TEST_CASE("service proxy: forwards to the Service's endpoint, without the caller's credentials",
          "[kubesim][service_proxy]") {
  Backend backend;
  SimServer sim;
  add_service(sim.store);
  sim.store.create(*sim.store.find("", "v1", "pods"), pod_at("web-0", "127.0.0.1"));
  sim.store.create(*sim.store.find("", "v1", "endpoints"), endpoints("127.0.0.1", backend.port, kRef));
  auto c = sim.client();
  for (const std::string id : {"web:80", "web:http", "http:web:80"}) {
    INFO(id);
    auto r = c->Get("/api/v1/namespaces/default/services/" + id + "/proxy/api/v1/query?query=up&time=5");
    REQUIRE(r);
    CHECK(r->status == 200);
    const json b = body_json(r);
    CHECK(b["method"] == "GET");
    CHECK(b["path"] == "/api/v1/query");
    CHECK(b["params"] == json({{"query", "up"}, {"time", "5"}}));
    CHECK(b["authorization"] == "");  // kube-apiserver's authentication filter removed it
  }
  auto p = c->Post("/api/v1/namespaces/default/services/web:80/proxy/api/v1/query", "query=up",
                   "application/x-www-form-urlencoded");
  REQUIRE(p);
  CHECK(body_json(p)["body"] == "query=up");
  // The backend's own status passes through.
  auto missing = c->Get("/api/v1/namespaces/default/services/web:80/proxy/missing");
  REQUIRE(missing);
  CHECK(missing->status == 404);
}

TEST_CASE("service proxy: endpoints that cannot be used", "[kubesim][service_proxy]") {
  SimServer sim;
  add_service(sim.store);
  const ResourceType& eps = *sim.store.find("", "v1", "endpoints");
  const ResourceType& pods = *sim.store.find("", "v1", "pods");
  auto c = sim.client();
  auto message = [&] {
    auto r = c->Get("/api/v1/namespaces/default/services/web:80/proxy/");
    REQUIRE(r);
    CHECK(r->status == 503);
    return body_json(r)["message"].get<std::string>();
  };
  // No targetRef, or one naming no pod with that IP (isValidAddress): no endpoint.
  sim.store.create(eps, endpoints("127.0.0.1", 9, json()));
  CHECK(message() == "no endpoints available for service \"web\"");
  sim.store.remove(eps, "default", "web");
  sim.store.create(eps, endpoints("127.0.0.1", 9, kRef));
  CHECK(message() == "no endpoints available for service \"web\"");
  sim.store.create(pods, pod_at("web-0", "10.0.0.7"));
  CHECK(message() == "no endpoints available for service \"web\"");
  // A pod address kubesim cannot reach: no pod network, nothing is dialled.
  sim.store.remove(eps, "default", "web");
  sim.store.create(eps, endpoints("10.0.0.7", 8080, kRef));
  CHECK(message() == "error trying to reach service: dial tcp 10.0.0.7:8080: connect: no route to host");
  // A loopback address where nothing listens.
  sim.store.remove(eps, "default", "web");
  sim.store.create(pods, pod_at("web-1", "127.0.0.1"));
  int port = 0;
  {
    Backend closed;
    port = closed.port;
  }
  sim.store.create(eps, endpoints("127.0.0.1", port, {{"kind", "Pod"}, {"namespace", "default"}, {"name", "web-1"}}));
  CHECK(message() == "error trying to reach service: dial tcp 127.0.0.1:" + std::to_string(port) +
                         ": connect: connection refused");
}

TEST_CASE("--prometheus-endpoint: the Prometheus Service forwards to a real Prometheus", "[kubesim][service_proxy]") {
  Backend prometheus;
  ServerOptions o;
  o.prometheus.enabled = true;
  o.prometheus.endpoint = "127.0.0.1:" + std::to_string(prometheus.port);
  SimServer sim(nullptr, o);
  sim.store.create(*sim.store.find("", "v1", "nodes"), make_node({{"name", "gpu-a"}, {"gpus", 2}}));
  install_prometheus_service(sim.store, o.prometheus);
  install_prometheus_endpoint(sim.store, o.prometheus);
  auto r = sim.client()->Get(
      "/api/v1/namespaces/monitoring/services/prometheus-server:9090/proxy/api/v1/query?query=DCGM_FI_DEV_GPU_UTIL");
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(body_json(r)["params"]["query"] == "DCGM_FI_DEV_GPU_UTIL");  // the backend's echo, not the simulation
  auto pod = sim.store.get(*sim.store.find("", "v1", "pods"), "monitoring", "prometheus-server-0");
  REQUIRE(pod);
  CHECK((*pod)["metadata"]["labels"]["app.kubernetes.io/name"] == "prometheus");
  CHECK_THROWS_WITH(install_prometheus_endpoint(sim.store, PrometheusOptions{.endpoint = "localhost"}),
                    "prometheus endpoint must be HOST:PORT, not \"localhost\"");
}
