// The service proxy route of kubesim: the simulated Prometheus Service answers the Prometheus
// API under every form of the service id; other Services, ports and ids answer as
// kube-apiserver does.
#include <catch2/catch.hpp>

#include "kubesim/seed_objects.h"
#include "rest_fixture.h"

using namespace kubesim;
using kubesim::testing::body_json;
using kubesim::testing::SimServer;

namespace {

ServerOptions with_prometheus() {
  ServerOptions o;
  o.prometheus.enabled = true;
  o.prometheus.exporter = "dcgm";
  o.clock = [] { return std::chrono::system_clock::time_point(std::chrono::seconds(1'700'000'000)); };
  return o;
}

const std::string kQuery = "/proxy/api/v1/query?query=DCGM_FI_DEV_GPU_UTIL";

}  // namespace

TEST_CASE("service proxy: the Prometheus Service under every id form", "[kubesim][service_proxy]") {
  SimServer sim(nullptr, with_prometheus());
  install_prometheus_service(sim.store, sim.server->options().prometheus);
  sim.store.create(*sim.store.find("", "v1", "nodes"), make_node({{"name", "gpu-a"}, {"gpus", 2}}));
  auto c = sim.client();
  for (const std::string id : {"prometheus-server:9090", "prometheus-server", "http:prometheus-server:9090",
                               "prometheus-server:http"}) {
    INFO(id);
    auto r = c->Get("/api/v1/namespaces/monitoring/services/" + id + kQuery);
    REQUIRE(r);
    CHECK(r->status == 200);
    json b = body_json(r);
    CHECK(b["status"] == "success");
    CHECK(b["data"]["result"].size() == 2);
    CHECK(b["data"]["result"][0]["value"][0] == 1'700'000'000);
  }
  // POST with a form body, as client_golang sends it.
  auto p = c->Post("/api/v1/namespaces/monitoring/services/prometheus-server:9090/proxy/api/v1/query",
                   "query=DCGM_FI_DEV_FB_FREE%7Bgpu%3D%221%22%7D", "application/x-www-form-urlencoded");
  REQUIRE(p);
  CHECK(p->status == 200);
  CHECK(body_json(p)["data"]["result"][0]["value"][1] == "16384");
  // A query Prometheus cannot parse: its error envelope, passed through.
  auto bad =
      c->Get("/api/v1/namespaces/monitoring/services/prometheus-server:9090/proxy/api/v1/query?query=rate(");
  REQUIRE(bad);
  CHECK(bad->status == 400);
  CHECK(body_json(bad)["errorType"] == "bad_data");
  // Unauthenticated requests are refused as every other request.
  auto anon =
      sim.client(false)->Get("/api/v1/namespaces/monitoring/services/prometheus-server:9090" + kQuery);
  REQUIRE(anon);
  CHECK(anon->status == 401);
}

TEST_CASE("service proxy: errors as kube-apiserver gives them", "[kubesim][service_proxy]") {
  SimServer sim(nullptr, with_prometheus());
  install_prometheus_service(sim.store, sim.server->options().prometheus);
  sim.store.create(*sim.store.find("", "v1", "services"),
                   {{"apiVersion", "v1"},
                    {"kind", "Service"},
                    {"metadata", {{"name", "web"}, {"namespace", "default"}}},
                    {"spec", {{"ports", json::array({{{"name", "http"}, {"port", 80}}})}}}});
  auto c = sim.client();
  auto status = [&](const std::string& path, int code, const std::string& message) {
    INFO(path);
    auto r = c->Get(path);
    REQUIRE(r);
    CHECK(r->status == code);
    json b = body_json(r);
    CHECK(b["kind"] == "Status");
    CHECK(b["message"] == message);
    return b;
  };
  json nf =
      status("/api/v1/namespaces/monitoring/services/prom:9090" + kQuery, 404, "services \"prom\" not found");
  CHECK(nf["reason"] == "NotFound");
  json ne = status("/api/v1/namespaces/default/services/web:80" + kQuery, 503,
                   "no endpoints available for service \"web\"");
  CHECK(ne["reason"] == "ServiceUnavailable");
  status("/api/v1/namespaces/monitoring/services/prometheus-server:8080" + kQuery, 503,
         "no service port 8080 found for service \"prometheus-server\"");
  status("/api/v1/namespaces/monitoring/services/prometheus-server:web" + kQuery, 503,
         "no endpoints available for service \"prometheus-server\"");
  status("/api/v1/namespaces/monitoring/services/ftp:prometheus-server:9090" + kQuery, 400,
         "invalid service request \"ftp:prometheus-server:9090\"");
  status("/api/v1/namespaces/monitoring/services/a:b:c:d" + kQuery, 400,
         "invalid service request \"a:b:c:d\"");
  auto other = c->Get("/api/v1/namespaces/monitoring/services/prometheus-server:9090/proxy/api/v1/labels");
  REQUIRE(other);
  CHECK(other->status == 404);

  // Without --prometheus the Service is one without endpoints.
  SimServer plain;
  install_prometheus_service(plain.store, PrometheusOptions{});
  auto r = plain.client()->Get("/api/v1/namespaces/monitoring/services/prometheus-server:9090" + kQuery);
  REQUIRE(r);
  CHECK(r->status == 503);
}
