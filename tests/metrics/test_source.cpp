// Finding Prometheus through the API server and querying it, against a fake API server.
#include <catch2/catch.hpp>
#include <iterator>

#include "metrics/source.h"
#include "support/fake_client.h"

using namespace trainctl;
using namespace trainctl::metrics;
using trainctl::testing::FakeClient;
using nlohmann::json;

namespace {

// The LIST of Services for each selector, in the order they are tried (percent-encoded).
const char* const kLists[] = {
    "/api/v1/services?labelSelector=kubernetes.io%2Fservice-name%3Dprometheus-admin&limit=1",
    "/api/v1/services?labelSelector=kubernetes.io%2Fservice-name%3Dprometheus-server&limit=1",
    "/api/v1/services?labelSelector=kubernetes.io%2Fname%3DPrometheus&limit=1",
    "/api/v1/services?labelSelector=operated-prometheus%3Dtrue&limit=1",
    "/api/v1/services?labelSelector=app%3Dkube-prometheus-stack-prometheus&limit=1",
    "/api/v1/services?labelSelector=app.kubernetes.io%2Fname%3Dprometheus%2Capp.kubernetes.io%2Fcomponent%3Dserver&limit=1",
};

json service(const std::string& ns, const std::string& name) {
  return {{"metadata", {{"namespace", ns}, {"name", name}}}};
}

// Stubs every selector's list: `found` maps a selector's position to the Service it lists.
void stub_lists(FakeClient& api, const std::map<size_t, json>& found) {
  for (size_t i = 0; i < std::size(kLists); ++i) {
    auto it = found.find(i);
    api.on_get(kLists[i], FakeClient::list(it == found.end() ? json::array() : json::array({it->second})));
  }
}

const std::string kProxy = "/api/v1/namespaces/monitoring/services/prometheus-server:9090/proxy/api/v1/query";

}  // namespace

TEST_CASE("Prometheus is the first Service of the first selector that lists one, at that selector's port",
          "[metrics][source]") {
  FakeClient api;
  // Arena's prometheus-server selector and prometheus-operator's both match: Arena's wins.
  stub_lists(api, {{1, service("monitoring", "prometheus-server")}, {3, service("obs", "prometheus-operated")}});
  const auto svc = find_prometheus_service(api);
  REQUIRE(svc.has_value());
  CHECK(svc->ns == "monitoring");
  CHECK(svc->name == "prometheus-server");
  CHECK(svc->port == 9090);
  CHECK(api.batches() == std::vector<size_t>{6});  // one round
  api.verify();

  FakeClient chart;  // the prometheus chart's server listens on 80
  stub_lists(chart, {{5, service("mon", "prom-prometheus-server")}});
  CHECK(find_prometheus_service(chart)->port == 80);

  FakeClient agent;  // an agent answers no queries
  stub_lists(agent, {{3, service("obs", "prometheus-agent-operated")}});
  CHECK_FALSE(find_prometheus_service(agent).has_value());
}

TEST_CASE("no Prometheus, or no right to list Services: a reason, never a failure", "[metrics][source]") {
  FakeClient none;
  stub_lists(none, {});
  auto lookup = find_metrics_source(none, PrometheusSettings{});
  CHECK_FALSE(lookup.source.has_value());
  CHECK(lookup.why == "no Prometheus found in the cluster; name one with --prometheus URL or TRAINCTL_PROMETHEUS");

  FakeClient forbidden;
  for (const char* path : kLists)
    forbidden.on("GET", path, 403,
                 {{"kind", "Status"}, {"reason", "Forbidden"},
                  {"message", "services is forbidden: User \"alice\" cannot list resource \"services\""}});
  lookup = find_metrics_source(forbidden, PrometheusSettings{});
  CHECK_FALSE(lookup.source.has_value());
  CHECK(lookup.why.rfind("cannot look for Prometheus (services is forbidden", 0) == 0);
}

TEST_CASE("an instant query through the service proxy, with Prometheus's timeout and no retry", "[metrics][source]") {
  auto api = std::make_shared<FakeClient>();
  api->on_get(kProxy + "?query=up&timeout=5s",
              {{"status", "success"},
               {"data", {{"resultType", "vector"}, {"result", json::array({{{"metric", {{"job", "p"}}}, {"value", {1.0, "1"}}}})}}}});
  MetricsSource source(api, "/api/v1/namespaces/monitoring/services/prometheus-server:9090/proxy",
                       "Prometheus monitoring/prometheus-server:9090", std::chrono::seconds(5));
  const auto series = source.query("up");
  REQUIRE(series.size() == 1);
  CHECK(series[0].label("job") == "p");
  REQUIRE(api->requests().size() == 1);
  CHECK_FALSE(api->requests()[0].is_idempotent());
  CHECK(api->requests()[0].timeout == std::chrono::milliseconds(5000));  // the client's own stays
  // Prometheus's own error comes back through the proxy as a 400 with its envelope.
  api->on("GET", kProxy + "?query=%7B&timeout=5s", 400,
          {{"status", "error"}, {"errorType", "bad_data"}, {"error", "1:2: parse error: unexpected end of input"}});
  CHECK_THROWS_WITH(source.query("{"), Catch::StartsWith("Prometheus monitoring/prometheus-server:9090: "));
  api->verify();
}

TEST_CASE("a Prometheus URL with credentials in it is shown without them", "[metrics][source]") {
  PrometheusSettings s;
  s.url = "https://alice:pa55word@prometheus.example:9090/prom/";
  const auto lookup = find_metrics_source(*std::make_shared<FakeClient>(), s);
  REQUIRE(lookup.source.has_value());
  CHECK(lookup.source->description() == "https://***@prometheus.example:9090/prom");
  s.url = "http://127.0.0.1:9090";
  CHECK(find_metrics_source(*std::make_shared<FakeClient>(), s).source->description() ==
        "http://127.0.0.1:9090");
}
