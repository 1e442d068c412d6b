// The Prometheus HTTP API of kubesim's simulated Prometheus (web/api/v1/api.go): instant and
// range queries of the PromQL subset (promql.h) over the simulated GPU series (gpu_series.h),
// answered in Prometheus' JSON envelope.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace kubesim {

class Store;

struct PrometheusAnswer {
  int code = 200;
  std::string body;  // {"status":"success","data":{...}} or {"status":"error",...}
  std::string content_type = "application/json";
};

// endpoint is "query" or "query_range" (the path after api/v1/); params are the request's
// query-string or form parameters; now_ms is kubesim's simulated time.
PrometheusAnswer prometheus_api(const Store& store, const std::string& exporter, const std::string& endpoint,
                                const std::map<std::string, std::string>& params, int64_t now_ms);

}  // namespace kubesim
