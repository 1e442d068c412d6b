// Finding Prometheus and sending it instant queries (see source.h, docs/metrics.md).
#include "metrics/source.h"

#include "core/duration.h"
#include "core/errors.h"

#include <exception>
#include "kube/curl_client.h"
#include "kube/query.h"
#include "kube/resource.h"

namespace trainctl::metrics {

namespace {

// Prometheus's query endpoints (web/api/v1/api.go), relative to its root.
constexpr const char* kQueryPath = "api/v1/query";
constexpr const char* kQueryRangePath = "api/v1/query_range";

kube::ClientOptions short_options(std::chrono::milliseconds timeout) {
  kube::ClientOptions o;
  o.request_timeout = timeout;
  o.connect_timeout = timeout;
  o.max_retries = 0;
  return o;
}

// A URL as messages may show it: user:password@ before the host becomes "***@".
std::string redacted(const std::string& url) {
  const size_t scheme = url.find("://");
  const size_t start = scheme == std::string::npos ? 0 : scheme + 3;
  const size_t end = url.find_first_of("/?#", start);
  const size_t at = url.rfind('@', end == std::string::npos ? std::string::npos : end);
  if (at == std::string::npos || at < start) return url;
  return url.substr(0, start) + "***" + url.substr(at);
}


}  // namespace

const std::vector<PrometheusSelector>& prometheus_selectors() {
  static const std::vector<PrometheusSelector> selectors = {
      {"kubernetes.io/service-name=prometheus-admin", 9335},
      {"kubernetes.io/service-name=prometheus-server", 9090},
      {"kubernetes.io/name=Prometheus", 9090},
      {"operated-prometheus=true", 9090},
      {"app=kube-prometheus-stack-prometheus", 9090},
      {"app.kubernetes.io/name=prometheus,app.kubernetes.io/component=server", 80},
  };
  return selectors;
}

std::vector<kube::Request> prometheus_service_requests() {
  std::vector<kube::Request> requests;
  for (const auto& s : prometheus_selectors()) {
    kube::ListQuery q;
    q.label_selector = s.selector;
    q.limit = 1;
    kube::Request r;
    r.path = kube::services().collection_path() + q.encode();
    requests.push_back(std::move(r));
  }
  return requests;
}

std::optional<PrometheusService> pick_prometheus_service(const std::vector<kube::Client::Result>& results) {
  size_t failed = 0;
  for (const auto& r : results) failed += r.error ? 1 : 0;
  if (failed == results.size() && !results.empty()) std::rethrow_exception(results.front().error);  // e.g. 403
  for (size_t i = 0; i < results.size() && i < prometheus_selectors().size(); ++i) {
    if (results[i].error) continue;  // this selector's list failed: try the next
    const nlohmann::json body = nlohmann::json::parse(results[i].response.body, nullptr, false);
    const nlohmann::json items = body.is_object() ? body.value("items", nlohmann::json::array()) : nlohmann::json();
    if (!items.is_array() || items.empty() || !items[0].is_object()) continue;
    const nlohmann::json meta = items[0].value("metadata", nlohmann::json::object());
    // prometheus-operator's prometheus-agent-operated shares the label and answers no queries.
    if (meta.value("name", "") == "prometheus-agent-operated") continue;
    return PrometheusService{meta.value("namespace", ""), meta.value("name", ""), prometheus_selectors()[i].port};
  }
  return std::nullopt;
}

std::optional<PrometheusService> find_prometheus_service(kube::Client& api) {
  return pick_prometheus_service(api.send_all(prometheus_service_requests()));
}

MetricsSource::MetricsSource(std::shared_ptr<kube::Client> client, std::string prefix, std::string description,
                             std::chrono::milliseconds timeout)
    : m_client(std::move(client)),
      m_prefix(std::move(prefix)),
      m_description(std::move(description)),
      m_timeout(timeout) {}

std::vector<Series> MetricsSource::query(const std::string& promql) const {
  kube::Query q;
  q.add("query", promql);
  return send(kQueryPath, q);
}

std::vector<Series> MetricsSource::query_range(const std::string& promql, std::chrono::system_clock::time_point start,
                                               std::chrono::system_clock::time_point end,
                                               std::chrono::seconds step) const {
  using std::chrono::duration_cast;
  using std::chrono::seconds;
  kube::Query q;
  // Unix seconds, whole: a step-aligned grid that the same command gives again a step later.
  q.add("query", promql)
      .add("start", std::to_string(duration_cast<seconds>(start.time_since_epoch()).count()))
      .add("end", std::to_string(duration_cast<seconds>(end.time_since_epoch()).count()))
      .add("step", std::to_string(std::max<long long>(step.count(), 1)));
  return send(kQueryRangePath, q);
}

std::vector<Series> MetricsSource::send(const char* endpoint, kube::Query& q) const {
  kube::Request r;
  // Prometheus reads "5s" or "2m" (model.ParseDuration); short_human_duration writes whole units,
  // rounding a longer timeout down, never up.
  q.add("timeout", short_human_duration(std::max(std::chrono::duration_cast<std::chrono::seconds>(m_timeout),
                                                 std::chrono::seconds(1))));
  r.path = m_prefix + "/" + endpoint + q.encode();
  r.idempotent = false;  // no retries: the answer is worth at most the timeout
  r.timeout = m_timeout;
  std::string body;
  try {
    body = m_client->send(r).body;
  } catch (const ApiError& e) {
    // Prometheus answers its own errors with 4xx/5xx and the error envelope in the body,
    // which the client could not read as a metav1.Status.
    throw PrometheusError(m_description + ": " + e.what());
  } catch (const Error& e) {
    throw PrometheusError(m_description + ": " + e.what());
  }
  const nlohmann::json parsed = nlohmann::json::parse(body, nullptr, false);
  if (parsed.is_discarded()) throw PrometheusError(m_description + " answered something that is not JSON");
  return parse_query_response(parsed);
}

MetricsLookup metrics_source_for(kube::Client& api, const PrometheusSettings& settings,
                                 const std::optional<PrometheusService>& svc) {
  MetricsLookup out;
  if (!settings.url.empty()) {
    kube::RestConfig direct;
    std::string url = settings.url;
    while (!url.empty() && url.back() == '/') url.pop_back();
    direct.server = url;
    direct.bearer_token = settings.token;
    direct.source = "--prometheus";
    out.source.emplace(kube::make_curl_client(direct, short_options(settings.timeout)), "", redacted(url),
                       settings.timeout);
    return out;
  }
  if (!svc) {
    out.why = "no Prometheus found in the cluster; name one with --prometheus URL or TRAINCTL_PROMETHEUS";
    return out;
  }
  // The API server's own client (not owned here), with this request's short timeout.
  std::shared_ptr<kube::Client> proxied(std::shared_ptr<kube::Client>(), &api);
  std::string prefix = kube::service_proxy_path(svc->ns, svc->name, svc->port, "");
  prefix.pop_back();  // the trailing slash: query() adds one before the query path
  out.source.emplace(std::move(proxied), std::move(prefix),
                     "Prometheus " + svc->ns + "/" + svc->name + ":" + std::to_string(svc->port), settings.timeout);
  return out;
}

MetricsLookup find_metrics_source(kube::Client& api, const PrometheusSettings& settings) {
  try {
    return metrics_source_for(api, settings, settings.url.empty() ? find_prometheus_service(api) : std::nullopt);
  } catch (const Error& e) {
    MetricsLookup out;
    out.why = std::string("cannot look for Prometheus (") + e.what() + "); name one with --prometheus URL";
    return out;
  }
}

}  // namespace trainctl::metrics
