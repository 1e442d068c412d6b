#include "metrics/prometheus_response.h"

#include <cmath>
#include <limits>

namespace trainctl::metrics {

using nlohmann::json;

namespace {

// A sample's value: Go's strconv.FormatFloat text, with "NaN", "+Inf", "-Inf".
double sample_value(const json& v) {
  if (!v.is_string()) throw PrometheusError("Prometheus answered a sample value that is not a string");
  const std::string& s = v.get_ref<const std::string&>();
  if (s == "NaN") return std::numeric_limits<double>::quiet_NaN();
  if (s == "+Inf") return std::numeric_limits<double>::infinity();
  if (s == "-Inf") return -std::numeric_limits<double>::infinity();
  try {
    size_t used = 0;
    const double d = std::stod(s, &used);
    if (used != s.size()) throw std::invalid_argument(s);
    return d;
  } catch (const std::exception&) {
    throw PrometheusError("Prometheus answered a sample value that is not a number: \"" + s + "\"");
  }
}

std::pair<double, double> point(const json& p) {
  if (!p.is_array() || p.size() != 2 || !p[0].is_number())
    throw PrometheusError("Prometheus answered a sample that is not [time, value]");
  return {p[0].get<double>(), sample_value(p[1])};
}

}  // namespace

double Series::last() const {
  return points.empty() ? std::numeric_limits<double>::quiet_NaN() : points.back().second;
}

const std::string& Series::label(const std::string& name) const {
  static const std::string none;
  auto it = labels.find(name);
  return it == labels.end() ? none : it->second;
}

std::vector<Series> parse_query_response(const json& body) {
  if (!body.is_object() || !body.contains("status") || !body["status"].is_string())
    throw PrometheusError("the answer is not a Prometheus API response");
  if (body["status"] != "success") {
    const std::string type = body.value("errorType", "");
    const std::string error = body.value("error", "");
    throw PrometheusError("Prometheus refused the query" + (type.empty() ? "" : " (" + type + ")") +
                          (error.empty() ? "" : ": " + error));
  }
  const json data = body.value("data", json::object());
  const std::string type = data.is_object() ? data.value("resultType", "") : "";
  const json result = data.is_object() ? data.value("result", json()) : json();
  std::vector<Series> out;
  if (type == "scalar") {
    Series s;
    s.points.push_back(point(result));
    out.push_back(std::move(s));
    return out;
  }
  if ((type != "vector" && type != "matrix") || !result.is_array())
    throw PrometheusError("Prometheus answered a result of type \"" + type + "\"; expected a vector or matrix");
  for (const auto& r : result) {
    if (!r.is_object()) throw PrometheusError("Prometheus answered a series that is not an object");
    Series s;
    const json metric = r.contains("metric") ? r["metric"] : json::object();
    if (metric.is_object())
      for (auto it = metric.begin(); it != metric.end(); ++it)
        if (it->is_string()) s.labels[it.key()] = it->get<std::string>();
    if (type == "vector") {
      s.points.push_back(point(r.value("value", json())));
    } else {
      for (const auto& p : r.value("values", json::array())) s.points.push_back(point(p));
    }
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace trainctl::metrics
