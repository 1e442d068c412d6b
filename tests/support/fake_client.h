// A fake kube::Client for command tests: it answers from registered stubs, records every
// request, throws on a request nobody stubbed, and verify() fails on stubs left unused
// (in the manner of gh's httpmock registry).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kube/client.h"

namespace trainctl::testing {

class FakeClient : public kube::Client {
 public:
  struct Stub {
    std::string method;
    std::string path;  // exact, with the query string
    long status = 200;
    std::string body;
    std::vector<std::string> lines;  // for stream()
    bool cut = false;                // stream(): throw TransportError after the lines
    bool used = false;
  };

  // Answers `method path` once with status and body (a JSON value, serialized).
  FakeClient& on(const std::string& method, const std::string& path, long status, const nlohmann::json& body);
  FakeClient& on_get(const std::string& path, const nlohmann::json& body) {
    return on("GET", path, 200, body);
  }
  // A 404 with a metav1.Status body, as the API server sends for a missing object or resource.
  FakeClient& on_not_found(const std::string& path);
  // A 403 with a metav1.Status body, as the API server refuses a user RBAC does not allow.
  FakeClient& on_forbidden(const std::string& path);
  // A streamed GET: delivers `lines`; with `cut`, the stream then breaks (TransportError).
  // on("STREAM", path, status, body) makes a stream fail with that status before any line.
  FakeClient& on_stream(const std::string& path, std::vector<std::string> lines, bool cut = false);

  kube::Response send(const kube::Request& request) override;
  std::vector<Result> send_all(const std::vector<kube::Request>& requests) override;
  void stream(const kube::Request& request, const kube::LineHandler& on_line) override;

  const std::vector<kube::Request>& requests() const { return m_requests; }
  // Sizes of the send_all batches, in order (to check that reads went out together).
  const std::vector<size_t>& batches() const { return m_batches; }
  std::vector<std::string> unused() const;
  // Throws std::logic_error listing the stubs that were never used.
  void verify() const;

  // A metav1.Status body of a failure, as the API server sends with a non-2xx status.
  static nlohmann::json status(long code, const std::string& reason, const std::string& message);
  // A paged list body: {"kind": "List", "items": items, "metadata": {"continue": cont}}.
  static nlohmann::json list(const nlohmann::json& items, const std::string& cont = "");

 private:
  Stub& take(const std::string& method, const std::string& path);
  std::vector<Stub> m_stubs;
  std::vector<kube::Request> m_requests;
  std::vector<size_t> m_batches;
};

}  // namespace trainctl::testing
