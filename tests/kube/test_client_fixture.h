// Shared set-up of the REST client tests: a throwaway CA, a real HTTPS server on 127.0.0.1
// and a RestConfig pointing at it; options with tiny backoffs whose waits are recorded
// instead of slept; a capture of log lines.
#pragma once

#include <chrono>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/log.h"
#include "kube/config.h"
#include "kube/curl_client.h"
#include "support/https_server.h"
#include "support/tls_fixture.h"

namespace trainctl::testing {

struct ServerFixture {
  explicit ServerFixture(bool require_client_cert = false,
                         const std::vector<std::string>& dns_names = {"localhost"},
                         const std::vector<std::string>& ips = {"127.0.0.1"}, bool max_tls12 = false)
      : server({ca.issue_server(dns_names, ips), require_client_cert ? ca.cert_pem() : std::string(), max_tls12}) {}

  kube::RestConfig config() const {
    kube::RestConfig c;
    c.server = server.url();
    c.ca_pem = ca.cert_pem();
    c.cluster_name = "test-cluster";
    c.source = "/tmp/test-kubeconfig";
    return c;
  }

  TestCa ca;
  HttpsServer server;
};

// Retry waits are recorded, not slept, so retry tests run in milliseconds.
struct RecordedWaits {
  std::mutex mutex;
  std::vector<std::chrono::milliseconds> waits;
  size_t count() {
    std::lock_guard lock(mutex);
    return waits.size();
  }
};

inline kube::ClientOptions fast_options(const std::shared_ptr<RecordedWaits>& waits) {
  kube::ClientOptions o;
  o.request_timeout = std::chrono::milliseconds(5000);
  o.connect_timeout = std::chrono::milliseconds(2000);
  o.initial_backoff = std::chrono::milliseconds(1);
  o.max_retries = 3;
  o.max_retry_time = std::chrono::milliseconds(10000);
  o.sleep = [waits](std::chrono::milliseconds d) {
    std::lock_guard lock(waits->mutex);
    waits->waits.push_back(d);
  };
  return o;
}

// kube-apiserver's answer to a continue token older than the last compaction of etcd
// (k8s.io/apiserver pkg/storage/etcd3/errors.go handleCompactedErrorForPaging).
inline nlohmann::json continue_expired_status() {
  return {{"kind", "Status"},
          {"apiVersion", "v1"},
          {"metadata", {{"continue", "ENCODED"}}},
          {"status", "Failure"},
          {"message",
           "The provided continue parameter is too old to display a consistent list result. You can start a "
           "new list without the continue parameter, or use the continue token in this response to retrieve "
           "the remainder of the results. Continuing with the provided token results in an inconsistent list "
           "- objects that were created, modified, or deleted between the time the first chunk was returned "
           "and now may show up in the list."},
          {"reason", "Expired"},
          {"code", 410}};
}

// Captures log lines at the given level for the lifetime of the object.
class LogCapture {
public:
  explicit LogCapture(log::Level level = log::Level::Debug) : m_old(log::level()) {
    log::set_level(level);
    log::set_sink([this](std::string_view line) {
      std::lock_guard lock(m_mutex);
      m_text.append(line).push_back('\n');
    });
  }
  ~LogCapture() {
    log::reset_sink();
    log::set_level(m_old);
  }
  LogCapture(const LogCapture&) = delete;
  LogCapture& operator=(const LogCapture&) = delete;
  std::string text() {
    std::lock_guard lock(m_mutex);
    return m_text;
  }

private:
  log::Level m_old;
  std::mutex m_mutex;
  std::string m_text;
};

}  // namespace trainctl::testing
