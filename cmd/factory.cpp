#include "cmd/factory.h"

#include <cstdlib>

#include "core/duration.h"
#include "core/errors.h"
#include "core/log.h"
#include "kube/curl_client.h"

namespace trainctl {

Factory::Factory(IOStreams io, GlobalOptions* globals) : m_io(std::move(io)), m_globals(globals) {}

Factory::Factory(IOStreams io, GlobalOptions globals)
    : m_io(std::move(io)),
      m_owned_globals(std::make_unique<GlobalOptions>(std::move(globals))),
      m_globals(m_owned_globals.get()) {}

void Factory::apply_globals() {
  log::Level level = log::parse_level(m_globals->loglevel);
  if (m_globals->verbose == 1 && level > log::Level::Info) level = log::Level::Info;
  if (m_globals->verbose >= 2) level = log::Level::Debug;
  log::set_level(level);
  if (m_globals->no_color) m_io.disable_color();
}

namespace {
// -n wins over the config file's namespace, which wins over the kubeconfig context's.
kube::LoadOptions load_options(const GlobalOptions& g, const std::string& config_namespace) {
  kube::LoadOptions o;
  o.kubeconfig_path = g.kubeconfig;
  o.context = g.context;
  o.namespace_ = g.namespace_.empty() ? config_namespace : g.namespace_;
  return o;
}
}  // namespace

const UserConfig& Factory::user_config() {
  if (!m_user_config) m_user_config = std::make_unique<UserConfig>(load_user_config());
  return *m_user_config;
}

const kube::RestConfig& Factory::rest_config() {
  if (!m_config)
    m_config = std::make_unique<kube::RestConfig>(
        kube::load_rest_config(load_options(*m_globals, user_config().namespace_)));
  return *m_config;
}

void Factory::set_rest_config(kube::RestConfig cfg) { m_config = std::make_unique<kube::RestConfig>(std::move(cfg)); }

std::string Factory::namespace_() {
  if (!m_globals->namespace_.empty()) return m_globals->namespace_;
  if (m_config) return m_config->namespace_;
  if (!user_config().namespace_.empty()) return user_config().namespace_;
  return kube::resolve_namespace(load_options(*m_globals, ""));
}

std::vector<std::string> Factory::kubeconfig_contexts() { return kube::list_contexts(load_options(*m_globals, "")); }

std::chrono::milliseconds Factory::request_timeout() const {
  const std::string& t = m_globals->request_timeout;
  if (t.empty() || t == "0") return std::chrono::milliseconds(0);
  try {
    return std::chrono::duration_cast<std::chrono::milliseconds>(parse_duration(t));
  } catch (const UsageError&) {
    throw UsageError("invalid --request-timeout \"" + t + "\": use a duration such as 30s, 2m or 0 for none");
  }
}

kube::Client& Factory::client() {
  if (!m_client) {
    kube::ClientOptions opts;
    if (m_client_options)
      opts = *m_client_options;
    else
      opts.request_timeout = request_timeout();
    m_client = kube::make_curl_client(rest_config(), opts);
  }
  return *m_client;
}

metrics::PrometheusSettings Factory::prometheus_settings() {
  metrics::PrometheusSettings settings;
  auto env = [](const char* name) {
    const char* v = std::getenv(name);
    return std::string(v ? v : "");
  };
  settings.url = m_globals->prometheus;
  if (settings.url.empty()) settings.url = env("TRAINCTL_PROMETHEUS");
  if (settings.url.empty()) settings.url = user_config().prometheus;
  settings.token = env("TRAINCTL_PROMETHEUS_TOKEN");
  return settings;
}

const metrics::MetricsLookup& Factory::metrics_source() {
  if (!m_metrics) {
    try {
      m_metrics = std::make_unique<metrics::MetricsLookup>(
          metrics::find_metrics_source(client(), prometheus_settings()));
    } catch (const Error& e) {
      m_metrics = std::make_unique<metrics::MetricsLookup>(metrics::MetricsLookup{std::nullopt, e.what()});
    }
  }
  return *m_metrics;
}

}  // namespace trainctl
