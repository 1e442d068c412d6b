// The answers of Prometheus's HTTP API (prometheus/prometheus web/api/v1/api.go, documented in
// docs/querying/api.md) to /api/v1/query and /api/v1/query_range:
//   {"status":"success","data":{"resultType":"vector","result":[{"metric":{...},"value":[1700000000.1,"42"]}]}}
//   {"status":"success","data":{"resultType":"matrix","result":[{"metric":{...},"values":[[t,"v"],...]}]}}
//   {"status":"error","errorType":"bad_data","error":"..."}
// Sample values are strings ("NaN", "+Inf" included); a scalar result is [t, "v"].
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/errors.h"

namespace trainctl::metrics {

// One series: its labels (with __name__ when the query kept it) and its points, oldest first
// (one point for an instant vector or a scalar).
struct Series {
  std::map<std::string, std::string> labels;
  std::vector<std::pair<double, double>> points;  // (unix seconds, value)
  // The value of the last point (NaN when there is none).
  double last() const;
  // A label's value, "" when absent.
  const std::string& label(const std::string& name) const;
};

// A Prometheus answer that is not a result: status "error" (its errorType and error), or a
// body that is not the API's envelope.
class PrometheusError : public Error {
 public:
  explicit PrometheusError(const std::string& message) : Error(message) {}
};

// The series of a query's answer. Throws PrometheusError.
std::vector<Series> parse_query_response(const nlohmann::json& body);

}  // namespace trainctl::metrics
