#include "support/fake_client.h"

#include <stdexcept>

#include "core/errors.h"

namespace trainctl::testing {

FakeClient& FakeClient::on(const std::string& method, const std::string& path, long status,
                           const nlohmann::json& body) {
  Stub s;
  s.method = method;
  s.path = path;
  s.status = status;
  s.body = body.is_string() ? body.get<std::string>() : body.dump();
  m_stubs.push_back(std::move(s));
  return *this;
}

nlohmann::json FakeClient::status(long code, const std::string& reason, const std::string& message) {
  return {{"kind", "Status"}, {"apiVersion", "v1"}, {"status", "Failure"},
          {"reason", reason}, {"code", code},       {"message", message}};
}

FakeClient& FakeClient::on_not_found(const std::string& path) {
  return on("GET", path, 404, status(404, "NotFound", "the server could not find the requested resource"));
}

FakeClient& FakeClient::on_forbidden(const std::string& path) {
  return on("GET", path, 403,
            status(403, "Forbidden", "forbidden: User \"alice\" cannot list resource at the cluster scope"));
}

FakeClient& FakeClient::on_stream(const std::string& path, std::vector<std::string> lines, bool cut) {
  Stub s;
  s.method = "STREAM";
  s.path = path;
  s.lines = std::move(lines);
  s.cut = cut;
  m_stubs.push_back(std::move(s));
  return *this;
}

FakeClient::Stub& FakeClient::take(const std::string& method, const std::string& path) {
  for (auto& s : m_stubs) {
    if (!s.used && s.method == method && s.path == path) {
      s.used = true;
      return s;
    }
  }
  throw std::logic_error("unexpected request: " + method + " " + path);
}

kube::Response FakeClient::send(const kube::Request& request) {
  m_requests.push_back(request);
  Stub& s = take(request.method, request.path);
  if (s.status < 200 || s.status > 299) {
    auto status = nlohmann::json::parse(s.body, nullptr, false);
    std::string reason = status.is_object() ? status.value("reason", "") : "";
    std::string message = status.is_object() ? status.value("message", s.body) : s.body;
    throw ApiError(static_cast<int>(s.status), reason, message);
  }
  kube::Response r;
  r.status = s.status;
  r.body = s.body;
  return r;
}

std::vector<kube::Client::Result> FakeClient::send_all(const std::vector<kube::Request>& requests) {
  m_batches.push_back(requests.size());
  std::vector<Result> out;
  for (const auto& r : requests) {
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

void FakeClient::stream(const kube::Request& request, const kube::LineHandler& on_line) {
  m_requests.push_back(request);
  Stub& s = take("STREAM", request.path);
  if (s.status < 200 || s.status > 299) {
    auto status = nlohmann::json::parse(s.body, nullptr, false);
    throw ApiError(static_cast<int>(s.status), status.is_object() ? status.value("reason", "") : "",
                   status.is_object() ? status.value("message", s.body) : s.body);
  }
  for (const auto& l : s.lines)
    if (!on_line(l)) return;
  if (s.cut) throw TransportError("stream cut: connection reset by peer");
}

std::vector<std::string> FakeClient::unused() const {
  std::vector<std::string> out;
  for (const auto& s : m_stubs)
    if (!s.used) out.push_back(s.method + " " + s.path);
  return out;
}

void FakeClient::verify() const {
  auto u = unused();
  if (u.empty()) return;
  std::string msg = "unused stubs:";
  for (const auto& s : u) msg += "\n  " + s;
  throw std::logic_error(msg);
}

nlohmann::json FakeClient::list(const nlohmann::json& items, const std::string& cont) {
  nlohmann::json l = {
      {"kind", "List"}, {"apiVersion", "v1"}, {"items", items}, {"metadata", nlohmann::json::object()}};
  if (!cont.empty()) l["metadata"]["continue"] = cont;
  return l;
}

}  // namespace trainctl::testing
