// A kube::Client that answers from fuzz input instead of a server. The input is a sequence
// of responses separated by lines holding only "---"; a response may start with a line
// "HTTP <code>" (default 200). Requests take the responses in turn, wrapping around, and a
// non-2xx response becomes the ApiError the real client raises (api_error_from_response).
// After kMaxRequests requests every call throws TransportError, which ends paging loops and
// watches that never reach their goal.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "core/errors.h"
#include "kube/client.h"
#include "kube/status_error.h"

namespace trainctl::fuzz {

class FakeClient : public kube::Client {
public:
  static constexpr size_t kMaxRequests = 24;

  explicit FakeClient(std::string_view input) {
    size_t start = 0;
    while (start <= input.size()) {
      size_t end = input.find("\n---\n", start);
      if (end == std::string_view::npos) end = input.size();
      m_responses.push_back(response(input.substr(start, end - start)));
      start = end + 5;
    }
  }

  const std::vector<kube::Response>& responses() const { return m_responses; }

  kube::Response send(const kube::Request&) override {
    kube::Response r = next();
    if (r.status < 200 || r.status > 299) throw kube::api_error_from_response(r.status, r.body, r.headers);
    return r;
  }

  std::vector<Result> send_all(const std::vector<kube::Request>& requests) override {
    std::vector<Result> out;
    for (const auto& r : requests) {
      Result res;
      try {
        res.response = send(r);
      } catch (const Error&) {
        res.error = std::current_exception();
      }
      out.push_back(std::move(res));
    }
    return out;
  }

  void stream(const kube::Request& request, const kube::LineHandler& on_line) override {
    const std::string body = send(request).body;
    std::string_view rest = body;
    while (!rest.empty()) {
      const size_t nl = rest.find('\n');
      if (!on_line(rest.substr(0, nl))) return;
      if (nl == std::string_view::npos) return;
      rest.remove_prefix(nl + 1);
    }
  }

private:
  static kube::Response response(std::string_view text) {
    kube::Response r;
    r.status = 200;
    if (text.substr(0, 5) == "HTTP ") {
      const size_t nl = text.find('\n');
      const std::string code(text.substr(5, nl == std::string_view::npos ? 3 : std::min<size_t>(nl - 5, 3)));
      r.status = std::strtol(code.c_str(), nullptr, 10);
      text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
      if (r.status == 429 || r.status == 503) r.headers["retry-after"] = "1";
    }
    r.body = std::string(text);
    return r;
  }

  kube::Response next() {
    if (m_sent >= kMaxRequests) throw TransportError("fuzz input exhausted");
    return m_responses[m_sent++ % m_responses.size()];
  }

  std::vector<kube::Response> m_responses;
  size_t m_sent = 0;
};

}  // namespace trainctl::fuzz
