#include "kubesim/faults.h"

#include <algorithm>
#include <stdexcept>

#include "core/file.h"
#include "yaml/read.h"

namespace kubesim {

nlohmann::json FaultRule::to_json() const {
  nlohmann::json j = {{"action", action}, {"matched", matched}, {"fired", fired}};
  if (!method.empty()) j["method"] = method;
  if (!path.empty()) j["path"] = path;
  if (!query.empty()) j["query"] = query;
  if (every) j["every"] = every;
  if (first) j["first"] = first;
  if (probability > 0) j["probability"] = probability;
  if (count >= 0) j["count"] = count;
  if (action == "status" || action == "html") j["status"] = status;
  if (retry_after >= 0) j["retryAfter"] = retry_after;
  if (!message.empty()) j["message"] = message;
  if (lines) j["lines"] = lines;
  if (delay_ms) j["delayMs"] = delay_ms;
  if (bytes >= 0) j["bytes"] = bytes;
  return j;
}

FaultRule FaultRule::from_json(const nlohmann::json& j) {
  if (!j.is_object()) throw std::invalid_argument("a fault rule must be an object");
  FaultRule r;
  try {
    r.method = j.value("method", "");
    if (r.method == "*") r.method.clear();
    r.path = j.value("path", "");
    r.path_re = std::regex(r.path.empty() ? std::string(".*") : r.path);
    r.query = j.value("query", "");
    r.query_re = std::regex(r.query.empty() ? std::string(".*") : r.query);
    r.every = j.value("every", 0);
    r.first = j.value("first", 0);
    r.probability = j.value("probability", 0.0);
    r.count = j.value("count", -1);
    r.action = j.value("action", "status");
    r.status = j.value("status", r.action == "html" ? 502 : 500);
    r.retry_after = j.value("retryAfter", -1);
    r.message = j.value("message", "");
    r.lines = j.value("lines", 0);
    r.delay_ms = j.value("delayMs", 0);
    r.bytes = j.value("bytes", -1);
  } catch (const std::regex_error& e) {
    throw std::invalid_argument("invalid path or query regex \"" + r.path + "\" / \"" + r.query + "\": " + e.what());
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(std::string("invalid fault rule: ") + e.what());
  }
  static const std::vector<std::string> actions = {"status",  "reset",    "cut",       "end",  "stall",
                                                   "latency", "truncate", "malformed", "html", "expire"};
  if (std::find(actions.begin(), actions.end(), r.action) == actions.end())
    throw std::invalid_argument("unknown fault action \"" + r.action + "\"");
  if ((r.action == "status" || r.action == "html") && (r.status < 100 || r.status > 599))
    throw std::invalid_argument("fault status must be an HTTP status code");
  return r;
}

std::vector<FaultRule> FaultInjector::parse(const nlohmann::json& j) {
  const nlohmann::json& arr = j.is_object() && j.contains("rules") ? j["rules"] : j;
  std::vector<FaultRule> out;
  if (arr.is_object()) {
    out.push_back(FaultRule::from_json(arr));
    return out;
  }
  if (!arr.is_array()) throw std::invalid_argument("faults: expected a rule, a list of rules or {rules: [...]}");
  for (const auto& r : arr) out.push_back(FaultRule::from_json(r));
  return out;
}

std::vector<FaultRule> FaultInjector::load_file(const std::string& path) {
  const std::string text = trainctl::read_file(path);
  auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded()) j = trainctl::yaml::parse(text, path);
  return parse(j);
}

void FaultInjector::set(std::vector<FaultRule> rules) {
  std::lock_guard lock(m_mutex);
  m_rules = std::move(rules);
}

void FaultInjector::add(std::vector<FaultRule> rules) {
  std::lock_guard lock(m_mutex);
  for (auto& r : rules) m_rules.push_back(std::move(r));
}

void FaultInjector::clear() {
  std::lock_guard lock(m_mutex);
  m_rules.clear();
}

nlohmann::json FaultInjector::to_json() const {
  std::lock_guard lock(m_mutex);
  nlohmann::json rules = nlohmann::json::array();
  for (const auto& r : m_rules) rules.push_back(r.to_json());
  return {{"rules", rules}};
}

std::optional<FaultRule> FaultInjector::decide(const std::string& method, const std::string& path,
                                               const std::string& query) {
  std::lock_guard lock(m_mutex);
  for (auto& r : m_rules) {
    if (!r.method.empty() && r.method != method) continue;
    if (!std::regex_search(path, r.path_re)) continue;
    if (!r.query.empty() && !std::regex_search(query, r.query_re)) continue;
    if (r.count >= 0 && r.fired >= r.count) continue;
    ++r.matched;
    bool fire = true;
    if (r.first > 0) fire = fire && r.matched <= r.first;
    if (r.every > 0) fire = fire && r.matched % r.every == 0;
    if (r.probability > 0) fire = fire && std::uniform_real_distribution<double>(0, 1)(m_rng) < r.probability;
    if (!fire) continue;
    ++r.fired;
    return r;
  }
  return std::nullopt;
}

std::string malformed_body() {
  return R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"cut sho)";
}

std::string proxy_error_page(int status) {
  std::string title = std::to_string(status);
  switch (status) {
    case 502: title += " Bad Gateway"; break;
    case 503: title += " Service Temporarily Unavailable"; break;
    case 504: title += " Gateway Time-out"; break;
    default: title += " Error"; break;
  }
  return "<html>\r\n<head><title>" + title + "</title></head>\r\n<body>\r\n<center><h1>" + title +
         "</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n";
}

size_t truncated_size(const FaultRule& rule, size_t size) {
  if (size == 0) return 0;
  size_t n = rule.bytes >= 0 ? static_cast<size_t>(rule.bytes) : size / 2;
  return std::min(n, size - 1);
}

std::string fault_reason(int status) {
  switch (status) {
    case 400: return "BadRequest";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "NotFound";
    case 409: return "Conflict";
    case 410: return "Expired";
    case 422: return "Invalid";
    case 429: return "TooManyRequests";
    case 500: return "InternalError";
    case 503: return "ServiceUnavailable";
    case 504: return "Timeout";
    default: return status >= 500 ? "InternalError" : "BadRequest";
  }
}

}  // namespace kubesim
