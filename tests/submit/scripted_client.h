// A kube::Client whose answers are decided by a function of the request, so that a test can
// fail the n-th request in any way (HTTP status, transport error) and see every request.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/errors.h"
#include "kube/client.h"

namespace trainctl::testing {

// One line of a watch stream: {"type": TYPE, "object": OBJ}.
inline std::string watch_event(const std::string& type, const nlohmann::json& obj) {
  return nlohmann::json{{"type", type}, {"object", obj}}.dump();
}

class ScriptedClient : public kube::Client {
 public:
  // Answers a send(): return a Response (2xx) or throw an Error.
  using Handler = std::function<kube::Response(const kube::Request&, int index)>;
  // Answers a stream(): the lines to deliver.
  using StreamHandler = std::function<std::vector<std::string>(const kube::Request&, int index)>;

  explicit ScriptedClient(Handler h, StreamHandler s = {})
      : m_handler(std::move(h)), m_stream(std::move(s)) {}

  kube::Response send(const kube::Request& r) override {
    m_requests.push_back(r);
    return m_handler(r, static_cast<int>(m_requests.size()) - 1);
  }
  std::vector<Result> send_all(const std::vector<kube::Request>& rs) override {
    std::vector<Result> out;
    for (const auto& r : rs) {
      Result res;
      try {
        res.response = send(r);
      } catch (...) {
        res.error = std::current_exception();
      }
      out.push_back(std::move(res));
    }
    return out;
  }
  void stream(const kube::Request& r, const kube::LineHandler& on_line) override {
    m_requests.push_back(r);
    m_streams.push_back(r);
    if (!m_stream) throw TransportError("no stream scripted");
    for (const auto& line : m_stream(r, static_cast<int>(m_streams.size()) - 1))
      if (!on_line(line)) return;
  }

  const std::vector<kube::Request>& requests() const { return m_requests; }
  const std::vector<kube::Request>& streams() const { return m_streams; }

  static kube::Response ok(const nlohmann::json& body, long status = 201) {
    return {status, body.dump(), {}};
  }
  // A metav1.Status error as kube-apiserver sends it, thrown as the real client does.
  [[noreturn]] static void fail(int status, const std::string& reason, const std::string& message) {
    throw ApiError(status, reason, message);
  }

 private:
  Handler m_handler;
  StreamHandler m_stream;
  std::vector<kube::Request> m_requests;
  std::vector<kube::Request> m_streams;
};

}  // namespace trainctl::testing
