// kubesim's HTTP face: the Kubernetes REST API (discovery, CRUD, watch, logs) over
// cpp-httplib, with TLS, bearer-token and client-certificate auth, and fault injection.
#pragma once

#include "kubesim/certs.h"
#include "kubesim/faults.h"
#include "kubesim/kube_version.h"
#include "kubesim/kueue_config.h"
#include "kubesim/logs.h"
#include "kubesim/prometheus_options.h"
#include "kubesim/rbac.h"
#include "kubesim/store.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace kubesim {

// Result of schema validation of one object (see the schema hook below).
struct ValidationResult {
  std::vector<std::string> unknown_fields;  // field paths like "spec.foo"
  json causes = json::array();              // [{reason, message, field}] for 422 Invalid
};
// Validates obj against rt's schema and prunes unknown fields from it.
using Validator = std::function<ValidationResult(const ResourceType& rt, json& obj)>;

struct ServerOptions {
  std::string listen = "127.0.0.1";
  int port = 0;                   // 0 = pick a free port
  bool tls = true;
  bool auth = true;               // require a token or client certificate
  std::vector<std::string> tokens;  // accepted bearer tokens (user "admin")
  // More bearer tokens, each of its own user (--token-auth-file, token_file.h); RBAC decides
  // what they may do unless they are in system:masters.
  std::vector<TokenUser> token_users;
  std::string cert_file, key_file;  // server certificate; generated when empty
  std::string ca_cert_file, ca_key_file;  // CA; generated when empty
  // Threads kept waiting for the next connection. Every open connection has a thread of its
  // own, started when none waits (connection_pool.h): kube-apiserver serves every connection
  // (a goroutine per accepted connection, Go's net/http/server.go), so that no number of
  // watches or followed logs holds up the requests after them.
  int threads = 64;
  Validator validator;            // optional schema validation (CRDs)
  KubeVersion kubernetes_version;  // what /version answers
  // How often a watch with allowWatchBookmarks=true gets a BOOKMARK (kube-apiserver's
  // cacher: every minute, and 2s before the watch's timeout).
  std::chrono::milliseconds bookmark_interval{60'000};
  // The simulated Prometheus behind the service proxy (seed key prometheus:, --prometheus).
  PrometheusOptions prometheus;
  // Simulated time (the Simulation's clock) for the Prometheus series; the real time if empty.
  std::function<std::chrono::system_clock::time_point()> clock;
  // Kueue's enabled integrations (the job webhook) and visibility API versions.
  KueueConfig kueue;
};

struct RequestInfo;  // parsed request (rest_request.h)

class Server {
public:
  Server(Store& store, LogStore& logs, ServerOptions options);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds (throws std::runtime_error when it cannot) and serves on a background thread.
  void start();
  void stop();
  int port() const { return m_port; }
  std::string url() const;
  const CertKey& ca() const { return m_ca; }
  // A client certificate for user, signed by the CA (for kubeconfigs and tests).
  CertKey client_cert(const std::string& user, const std::vector<std::string>& groups = {"system:masters"}) const;
  FaultInjector& faults() { return m_faults; }
  Store& store() { return m_store; }
  LogStore& logs() { return m_logs; }
  const ServerOptions& options() const { return m_opts; }

private:
  struct Http;
  Store& m_store;
  LogStore& m_logs;
  ServerOptions m_opts;
  CertKey m_ca, m_server_cert;
  FaultInjector m_faults;
  std::unique_ptr<Http> m_http;
  std::thread m_thread;
  int m_port = 0;
};

}  // namespace kubesim
