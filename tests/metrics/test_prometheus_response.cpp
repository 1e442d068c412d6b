// Prometheus HTTP API answers (web/api/v1/api.go; docs/querying/api.md "Expression query
// result formats"), written by hand from the documented envelope.
#include <catch2/catch.hpp>
#include <cmath>

#include "metrics/prometheus_response.h"

using namespace trainctl::metrics;
using nlohmann::json;

TEST_CASE("an instant vector: labels and one point per series", "[metrics][prometheus]") {
  const auto series = parse_query_response(json::parse(R"({"status":"success","data":{"resultType":"vector","result":[
    {"metric":{"__name__":"DCGM_FI_DEV_GPU_UTIL","gpu":"0","Hostname":"gpu-a"},"value":[1700000000.5,"87"]},
    {"metric":{"__name__":"DCGM_FI_DEV_GPU_UTIL","gpu":"1"},"value":[1700000000.5,"NaN"]}]}})"));
  REQUIRE(series.size() == 2);
  CHECK(series[0].label("Hostname") == "gpu-a");
  CHECK(series[0].label("missing").empty());
  CHECK(series[0].points == std::vector<std::pair<double, double>>{{1700000000.5, 87.0}});
  CHECK(series[0].last() == 87.0);
  CHECK(std::isnan(series[1].last()));
}

TEST_CASE("a matrix keeps every point, oldest first; a scalar is one point", "[metrics][prometheus]") {
  auto series = parse_query_response(json::parse(R"({"status":"success","data":{"resultType":"matrix","result":[
    {"metric":{"gpu":"0"},"values":[[1700000000,"1"],[1700000060,"2.5"],[1700000120,"+Inf"]]}]}})"));
  REQUIRE(series.size() == 1);
  REQUIRE(series[0].points.size() == 3);
  CHECK(series[0].points[1].second == 2.5);
  CHECK(std::isinf(series[0].last()));
  series = parse_query_response(json::parse(R"({"status":"success","data":{"resultType":"scalar","result":[1700000000,"4"]}})"));
  REQUIRE(series.size() == 1);
  CHECK(series[0].last() == 4.0);
  CHECK(series[0].labels.empty());
  CHECK(parse_query_response(json::parse(R"({"status":"success","data":{"resultType":"vector","result":[]}})")).empty());
}

TEST_CASE("errors and bodies that are not the API's envelope are PrometheusError", "[metrics][prometheus]") {
  CHECK_THROWS_WITH(parse_query_response(json::parse(
                        R"({"status":"error","errorType":"bad_data","error":"invalid parameter \"query\": 1:2: parse error"})")),
                    "Prometheus refused the query (bad_data): invalid parameter \"query\": 1:2: parse error");
  CHECK_THROWS_AS(parse_query_response(json::parse(R"("<html>proxy error</html>")")), PrometheusError);
  CHECK_THROWS_AS(parse_query_response(json::parse(R"({"status":"success","data":{"resultType":"string","result":[1,"x"]}})")),
                  PrometheusError);
  CHECK_THROWS_AS(parse_query_response(json::parse(
                      R"({"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1,"x1"]}]}})")),
                  PrometheusError);
  CHECK_THROWS_AS(parse_query_response(json::parse(
                      R"({"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1]}]}})")),
                  PrometheusError);
}
