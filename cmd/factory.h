// What every command gets: global flags, output streams, the clock, and a lazily built
// Kubernetes client (commands that never talk to the cluster never load a kubeconfig).
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "core/iostreams.h"
#include "core/user_config.h"
#include "kube/client.h"
#include "kube/config.h"

namespace trainctl {

struct GlobalOptions {
  std::string kubeconfig;           // --kubeconfig (hidden alias --config)
  std::string context;              // --context
  std::string namespace_;           // -n/--namespace
  std::string loglevel = "warn";    // --loglevel
  int verbose = 0;                  // -v (repeatable): 1 = info, 2+ = debug
  std::string request_timeout = "30s";
  bool no_color = false;
};

class Factory {
public:
  Factory(IOStreams io, GlobalOptions* globals);
  virtual ~Factory() = default;

  // Applies the global flags (log level, colour). Every command's run calls it first,
  // through run_command() in cmd/run.h.
  void apply_globals();

  IOStreams& io() { return m_io; }
  const GlobalOptions& globals() const { return *m_globals; }
  Clock clock() const { return m_clock; }
  void set_clock(Clock c) { m_clock = std::move(c); }

  // Kubeconfig resolved from the global flags (loaded once).
  virtual const kube::RestConfig& rest_config();
  // The namespace commands act in: -n, else the config file's `namespace`, else the
  // kubeconfig context's, else "default". Does not need a reachable cluster.
  virtual std::string namespace_();
  // The user's config file (docs/config.md), read once; settings unset when there is none.
  // Submit commands get its defaults applied to their flags (flags win) by
  // bind_config_defaults() in cmd/config_defaults.h; other code reads the fields here.
  const UserConfig& user_config();
  void set_user_config(UserConfig c) { m_user_config = std::make_unique<UserConfig>(std::move(c)); }
  // The client (built once, on first use).
  virtual kube::Client& client();

  // Tests inject a fake client or config.
  void set_client(std::shared_ptr<kube::Client> client) { m_client = std::move(client); }
  void set_rest_config(kube::RestConfig cfg);

  // --request-timeout parsed ("30s", "2m", "0" = none).
  std::chrono::milliseconds request_timeout() const;

private:
  IOStreams m_io;
  GlobalOptions* m_globals;
  Clock m_clock = system_clock();
  std::unique_ptr<kube::RestConfig> m_config;
  std::shared_ptr<kube::Client> m_client;
  std::unique_ptr<UserConfig> m_user_config;
};

}  // namespace trainctl
