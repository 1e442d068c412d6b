// What every command gets: global flags, output streams, the clock, and a lazily built
// Kubernetes client (commands that never talk to the cluster never load a kubeconfig).
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/iostreams.h"
#include "core/user_config.h"
#include "kube/client.h"
#include "kube/config.h"
#include "kube/curl_client.h"
#include "metrics/source.h"

namespace trainctl {

struct GlobalOptions {
  std::string kubeconfig;           // --kubeconfig (hidden alias --config)
  std::string context;              // --context
  std::string namespace_;           // -n/--namespace
  std::string loglevel = "warn";    // --loglevel
  int verbose = 0;                  // -v (repeatable): 1 = info, 2+ = debug
  std::string request_timeout = "30s";
  std::string prometheus;           // --prometheus URL (GPU metrics)
  bool no_color = false;
};

class Factory {
public:
  // Reads the global flags from `globals`, which the command line fills while parsing.
  Factory(IOStreams io, GlobalOptions* globals);
  // Holds its own copy of the global settings (completion's lookups, built per scope).
  Factory(IOStreams io, GlobalOptions globals);

  // Applies the global flags (log level, colour). Every command's run calls it first,
  // through bind_run() in cmd/run.h.
  void apply_globals();

  IOStreams& io() { return m_io; }
  const GlobalOptions& globals() const { return *m_globals; }
  Clock clock() const { return m_clock; }
  void set_clock(Clock c) { m_clock = std::move(c); }

  // Kubeconfig resolved from the global flags (loaded once).
  const kube::RestConfig& rest_config();
  // The namespace commands act in: -n, else the config file's `namespace`, else the
  // kubeconfig context's, else "default". Does not need a reachable cluster.
  std::string namespace_();
  // The context names of the kubeconfig files --kubeconfig/KUBECONFIG name (kube::list_contexts).
  std::vector<std::string> kubeconfig_contexts();
  // The user's config file (docs/config.md), read once; settings unset when there is none.
  // Submit commands get its defaults applied to their flags (flags win) by
  // bind_config_defaults() in cmd/config_defaults.h; other code reads the fields here.
  const UserConfig& user_config();
  void set_user_config(UserConfig c) { m_user_config = std::make_unique<UserConfig>(std::move(c)); }
  // The client (built once, on first use).
  kube::Client& client();
  // The options the client is built with: --request-timeout. Completion sets shorter ones.
  void set_client_options(kube::ClientOptions options) { m_client_options = std::move(options); }

  // Tests inject a fake client or config.
  void set_client(std::shared_ptr<kube::Client> client) { m_client = std::move(client); }
  void set_rest_config(kube::RestConfig cfg);

  // --request-timeout parsed ("30s", "2m", "0" = none).
  std::chrono::milliseconds request_timeout() const;

  // Where GPU metrics come from: --prometheus, else $TRAINCTL_PROMETHEUS, else the config
  // file's `prometheus`, else a Service found in the cluster (docs/metrics.md); the bearer
  // token from $TRAINCTL_PROMETHEUS_TOKEN. Looked up once; tests inject their own.
  const metrics::MetricsLookup& metrics_source();
  // Where metrics_source() looks first: --prometheus, $TRAINCTL_PROMETHEUS, the config file's
  // `prometheus` (empty url: look for a Service), and $TRAINCTL_PROMETHEUS_TOKEN.
  metrics::PrometheusSettings prometheus_settings();
  void set_metrics_source(metrics::MetricsLookup lookup) {
    m_metrics = std::make_unique<metrics::MetricsLookup>(std::move(lookup));
  }

private:
  IOStreams m_io;
  std::unique_ptr<GlobalOptions> m_owned_globals;
  GlobalOptions* m_globals;
  std::optional<kube::ClientOptions> m_client_options;
  Clock m_clock = system_clock();
  std::unique_ptr<kube::RestConfig> m_config;
  std::shared_ptr<kube::Client> m_client;
  std::unique_ptr<UserConfig> m_user_config;
  std::unique_ptr<metrics::MetricsLookup> m_metrics;
};

}  // namespace trainctl
