// Instant and range queries (prometheus_api.h), with Prometheus' parameter checks and error
// messages (web/api/v1/api.go parseTime, parseDuration, queryRange).
#include "kubesim/prometheus_api.h"

#include <charconv>
#include <cmath>
#include <stdexcept>

#include "core/rfc3339.h"
#include "kubesim/gpu_series.h"
#include "kubesim/store.h"

namespace kubesim {

namespace {

constexpr int64_t kMaxPoints = 11'000;

struct BadData : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string param_of(const std::map<std::string, std::string>& params, const std::string& key) {
  auto it = params.find(key);
  return it == params.end() ? "" : it->second;
}

// Unix seconds (float) or RFC 3339.
int64_t parse_prom_time(const std::string& name, const std::string& text) {
  char* end = nullptr;
  const double secs = std::strtod(text.c_str(), &end);
  if (!text.empty() && end && *end == '\0' && std::isfinite(secs)) return std::llround(secs * 1000);
  if (auto t = trainctl::parse_rfc3339(text))
    return std::chrono::duration_cast<std::chrono::milliseconds>(t->time_since_epoch()).count();
  throw BadData("invalid parameter \"" + name + "\": cannot parse \"" + text + "\" to a valid timestamp");
}

// A duration ("15s") or float seconds.
int64_t parse_prom_step(const std::string& text) {
  char* end = nullptr;
  const double secs = std::strtod(text.c_str(), &end);
  if (!text.empty() && end && *end == '\0' && std::isfinite(secs)) return std::llround(secs * 1000);
  const int64_t ms = promql::parse_duration_ms(text);
  if (ms < 0) throw BadData("invalid parameter \"step\": cannot parse \"" + text + "\" to a valid duration");
  return ms;
}

json timestamp(int64_t ms) {
  if (ms % 1000 == 0) return ms / 1000;
  return static_cast<double>(ms) / 1000.0;
}

// strconv.FormatFloat(v, 'f', -1, 64), as Prometheus writes sample values.
std::string sample_value(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  char buf[400];
  auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed);
  return std::string(buf, r.ptr);
}

json labels_json(const promql::Labels& l) {
  json out = json::object();
  for (const auto& [k, v] : l) out[k] = v;
  return out;
}

json matrix_json(const std::vector<promql::Series>& series) {
  json result = json::array();
  for (const auto& s : series) {
    json values = json::array();
    for (const auto& p : s.points) values.push_back({timestamp(p.t_ms), sample_value(p.v)});
    result.push_back({{"metric", labels_json(s.labels)}, {"values", values}});
  }
  return result;
}

promql::ExprPtr parse_query(const std::string& q) {
  try {
    return promql::parse(q);
  } catch (const promql::ParseError& e) {
    throw BadData(std::string("invalid parameter \"query\": ") + e.what());
  }
}

json instant(const Store& store, const std::string& exporter,
             const std::map<std::string, std::string>& params, int64_t now_ms) {
  const std::string time = param_of(params, "time");
  const int64_t t = time.empty() ? now_ms : parse_prom_time("time", time);
  promql::ExprPtr e = parse_query(param_of(params, "query"));
  const auto data = gpu_series(store, exporter, t - promql::lookback_ms(*e), t, now_ms);
  promql::Value v = promql::eval(*e, data, t);
  if (v.type == promql::ValueType::Scalar)
    return {{"resultType", "scalar"}, {"result", {timestamp(t), sample_value(v.scalar)}}};
  if (v.type == promql::ValueType::Matrix)
    return {{"resultType", "matrix"}, {"result", matrix_json(v.matrix)}};
  json result = json::array();
  for (const auto& s : v.vector)
    result.push_back({{"metric", labels_json(s.labels)}, {"value", {timestamp(t), sample_value(s.v)}}});
  return {{"resultType", "vector"}, {"result", result}};
}

json range(const Store& store, const std::string& exporter, const std::map<std::string, std::string>& params,
           int64_t now_ms) {
  const int64_t start = parse_prom_time("start", param_of(params, "start"));
  const int64_t end = parse_prom_time("end", param_of(params, "end"));
  if (end < start) throw BadData("invalid parameter \"end\": end timestamp must not be before start time");
  const int64_t step = parse_prom_step(param_of(params, "step"));
  if (step <= 0)
    throw BadData(
        "invalid parameter \"step\": zero or negative query resolution step widths are not accepted. Try a "
        "positive integer");
  if ((end - start) / step > kMaxPoints)
    throw BadData(
        "exceeded maximum resolution of 11,000 points per timeseries. Try decreasing the query resolution "
        "(?step=XX)");
  promql::ExprPtr e = parse_query(param_of(params, "query"));
  if (promql::type_of(*e) == promql::ValueType::Matrix)
    throw BadData(
        "invalid parameter \"query\": invalid expression type \"range vector\" for range query, must be "
        "Scalar "
        "or instant Vector");
  const auto data = gpu_series(store, exporter, start - promql::lookback_ms(*e), end, now_ms);
  return {{"resultType", "matrix"}, {"result", matrix_json(promql::eval_range(*e, data, start, end, step))}};
}

}  // namespace

PrometheusAnswer prometheus_api(const Store& store, const std::string& exporter, const std::string& endpoint,
                                const std::map<std::string, std::string>& params, int64_t now_ms) {
  PrometheusAnswer out;
  if (endpoint != "query" && endpoint != "query_range") {
    out.code = 404;
    out.body = "404 page not found\n";
    out.content_type = "text/plain; charset=utf-8";
    return out;
  }
  try {
    json data = endpoint == "query" ? instant(store, exporter, params, now_ms)
                                    : range(store, exporter, params, now_ms);
    out.body = json({{"status", "success"}, {"data", data}}).dump();
  } catch (const BadData& e) {
    out.code = 400;
    out.body = json({{"status", "error"}, {"errorType", "bad_data"}, {"error", e.what()}}).dump();
  }
  return out;
}

}  // namespace kubesim
