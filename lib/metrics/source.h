// Where GPU metrics come from (docs/metrics.md section 5): the Prometheus the user names
// (--prometheus URL, TRAINCTL_PROMETHEUS, the config file's `prometheus`; a bearer token from
// TRAINCTL_PROMETHEUS_TOKEN or `prometheusToken`), else the first Service that looks like
// Prometheus, reached through the API server's service proxy as Arena reaches it. Queries
// are instant queries (and a range query for the utilisation history) with a short timeout and no retries: metrics are an extra, and a slow
// or broken Prometheus must cost at most that timeout and never fail a command.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kube/client.h"
#include "kube/config.h"
#include "kube/query.h"
#include "metrics/prometheus_response.h"

namespace trainctl::metrics {

struct PrometheusSettings {
  std::string url;    // empty: look for a Service
  std::string token;  // bearer token for url
  std::chrono::milliseconds timeout{5000};
};

// A Service that looks like Prometheus: its label selector and the port its API listens on.
struct PrometheusSelector {
  const char* selector;
  int port;
};
// In the order they are tried: Arena's three (prometheus-admin 9335, prometheus-server 9090,
// kubernetes.io/name=Prometheus 9090), then prometheus-operator's prometheus-operated,
// kube-prometheus-stack's and the prometheus chart's server (port 80).
const std::vector<PrometheusSelector>& prometheus_selectors();

struct PrometheusService {
  std::string ns, name;
  int port = 0;
};

// One LIST of Services per selector, sent together; the first selector with a Service wins
// (the first Service of its list). nullopt when there is none.
std::optional<PrometheusService> find_prometheus_service(kube::Client& api);
// The same in two steps, for a caller that sends the lists in a round of its own: the lists,
// one per selector in order, and the pick from their results (throws the first error when
// every list failed, e.g. 403).
std::vector<kube::Request> prometheus_service_requests();
std::optional<PrometheusService> pick_prometheus_service(const std::vector<kube::Client::Result>& results);

class MetricsSource {
 public:
  // Queries go to `client` under `prefix` (a service proxy path, or "" for a direct URL).
  MetricsSource(std::shared_ptr<kube::Client> client, std::string prefix, std::string description,
                std::chrono::milliseconds timeout);

  // An instant query. Throws PrometheusError (also for transport and HTTP failures).
  std::vector<Series> query(const std::string& promql) const;
  // A range query (query_range): start and end in whole Unix seconds, step in seconds. Throws
  // as query().
  std::vector<Series> query_range(const std::string& promql, std::chrono::system_clock::time_point start,
                                  std::chrono::system_clock::time_point end, std::chrono::seconds step) const;
  // "Prometheus monitoring/prometheus-server:9090" or the URL, for messages.
  const std::string& description() const { return m_description; }

 private:
  std::vector<Series> send(const char* endpoint, kube::Query& q) const;

  std::shared_ptr<kube::Client> m_client;
  std::string m_prefix;
  std::string m_description;
  std::chrono::milliseconds m_timeout;
};

// The metrics source, or why there is none (`why`: one line for the user).
struct MetricsLookup {
  std::optional<MetricsSource> source;
  std::string why;
};

// settings.url set: a client of its own for it; else a Service found through `api` and queried
// through it, each query with the short timeout and no retries. `api` must outlive the
// lookup. Discovery failures (no permission to list Services, ...) end in `why`, never in a
// throw.
MetricsLookup find_metrics_source(kube::Client& api, const PrometheusSettings& settings);
// The source of settings.url (a client of its own), or of `found` through `api`'s service
// proxy; `why` when there is neither.
MetricsLookup metrics_source_for(kube::Client& api, const PrometheusSettings& settings,
                                 const std::optional<PrometheusService>& found);

}  // namespace trainctl::metrics
