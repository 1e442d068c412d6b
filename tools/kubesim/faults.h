// Fault injection: rules that make matching requests fail, stall, slow down, lose their
// connection or get their stream cut. Loaded from a JSON/YAML file (--faults FILE) and set
// or cleared at run time through POST/GET/DELETE /kubesim/faults. Thread-safe.
//
// Rule fields (JSON/YAML):
//   method: GET            # optional, any when absent ("*" too)
//   path: "^/api/v1/pods"  # optional ECMAScript regex searched in the request path
//   query: "continue="     # optional ECMAScript regex searched in the query string
//   every: 3               # optional: fire on every 3rd matching request
//   first: 2               # optional: fire on the first 2 matching requests
//   probability: 0.5       # optional: fire with this probability
//   count: 5               # optional: stop after firing 5 times
//   action: status|reset|cut|end|stall|latency|truncate|malformed|html|expire
//   status: 429            # action status: HTTP code (body: a metav1.Status with reason);
//                          # action html: the proxy's code (default 502)
//   retryAfter: 2          # seconds, sent as Retry-After (429/503)
//   message: "..."         # Status message
//   lines: 3               # action cut: close the stream after this many lines/events;
//                          # action end: end a watch cleanly (its last chunk sent) after
//                          # this many events, default 0, as a proxy that closes idle
//                          # streams does
//   delayMs: 500           # action stall/latency: sleep before handling (stall: then reset)
//   bytes: 100             # action truncate: send this many bytes of the real body (default
//                          # half of it) under the full Content-Length, then close
// Action malformed answers 200 with a body that is not JSON; action html answers like a
// proxy in front of the API server: an HTML error page, text/html. Action expire answers as
// kube-apiserver does once the revision asked for was compacted: a list with a continue
// token gets 410 Expired (with a token to go on inconsistently), a watch gets HTTP 200 and
// one ERROR event (410 Expired, "too old resource version") before the stream ends.
#pragma once

#include <nlohmann/json.hpp>

#include <mutex>
#include <optional>
#include <random>
#include <regex>
#include <string>
#include <vector>

namespace kubesim {

struct FaultRule {
  std::string method;
  std::string path;  // regex text
  std::regex path_re;
  std::string query;  // regex text, "" = any query
  std::regex query_re;
  int every = 0;
  int first = 0;
  double probability = 0;
  int count = -1;  // -1 = unlimited
  std::string action = "status";
  int status = 500;
  int retry_after = -1;
  std::string message;
  int lines = 0;
  int delay_ms = 0;
  int bytes = -1;  // -1 = half of the body
  // runtime counters
  int matched = 0;
  int fired = 0;

  nlohmann::json to_json() const;
  static FaultRule from_json(const nlohmann::json& j);  // throws std::invalid_argument
};

class FaultInjector {
public:
  // Accepts {"rules":[...]} or a bare array of rules.
  static std::vector<FaultRule> parse(const nlohmann::json& j);
  static std::vector<FaultRule> load_file(const std::string& path);  // JSON or YAML

  void set(std::vector<FaultRule> rules);
  void add(std::vector<FaultRule> rules);
  void clear();
  nlohmann::json to_json() const;
  // The rule that fires for this request, if any (counters are updated). `query` is the
  // request's query string (without "?").
  std::optional<FaultRule> decide(const std::string& method, const std::string& path,
                                  const std::string& query = "");

private:
  mutable std::mutex m_mutex;
  std::vector<FaultRule> m_rules;
  std::mt19937_64 m_rng{12345};
};

// The body of a "malformed" answer: JSON cut short inside a string.
std::string malformed_body();
// The HTML error page of a proxy for an "html" answer ("502 Bad Gateway" ...).
std::string proxy_error_page(int status);
// How many bytes of a body of `size` bytes a "truncate" rule sends (always fewer than size).
size_t truncated_size(const FaultRule& rule, size_t size);

// Standard reason phrase for the Status body of a fault ("TooManyRequests", ...).
std::string fault_reason(int status);

}  // namespace kubesim
