// The PromQL subset of kubesim's simulated Prometheus: parsing, selectors and regex matchers,
// "or", *_over_time, arithmetic by a number, label_replace, and the errors.
#include <catch2/catch.hpp>

#include "kubesim/promql.h"

using namespace kubesim::promql;

namespace {

constexpr int64_t kT = 1'700'000'000'000;  // evaluation time (ms)

Series series(Labels labels, std::vector<double> values, int64_t last = kT, int64_t step = 15'000) {
  Series s{std::move(labels), {}};
  int64_t t = last - step * static_cast<int64_t>(values.size() - 1);
  for (double v : values) {
    s.points.push_back({t, v});
    t += step;
  }
  return s;
}

std::vector<Series> data() {
  return {
      series(
          {{"__name__", "DCGM_FI_DEV_GPU_UTIL"}, {"gpu", "0"}, {"pod", "job-worker-0"}, {"namespace", "ns1"}},
          {80, 90, 85}),
      series(
          {{"__name__", "DCGM_FI_DEV_FB_USED"}, {"gpu", "0"}, {"pod", "job-worker-0"}, {"namespace", "ns1"}},
          {100, 100, 100}),
      series({{"__name__", "DCGM_FI_DEV_GPU_UTIL"}, {"gpu", "1"}, {"pod", "job.x-1"}, {"namespace", "ns1"}},
             {0, 0, 0}),
      series({{"__name__", "DCGM_FI_DEV_GPU_UTIL"}, {"gpu", "2"}}, {5}, kT - 6 * 60'000),  // stale
      series({{"__name__", "nvidia_gpu_duty_cycle"}, {"minor_number", "0"}, {"pod_name", "job-worker-0"}},
             {40, 60}),
  };
}

std::vector<Sample> query(const std::string& q) {
  Value v = eval(*parse(q), data(), kT);
  REQUIRE(v.type == ValueType::Vector);
  return v.vector;
}

std::string get(const Labels& l, const std::string& k) {
  auto it = l.find(k);
  return it == l.end() ? "<none>" : it->second;
}

}  // namespace

TEST_CASE("promql: metric name and label matchers", "[kubesim][promql]") {
  auto r = query("DCGM_FI_DEV_GPU_UTIL");
  REQUIRE(r.size() == 2);  // the stale series (6 minutes old) is out of the 5 minute lookback
  CHECK(r[0].v == 85);
  CHECK(get(r[0].labels, "__name__") == "DCGM_FI_DEV_GPU_UTIL");
  CHECK(query("DCGM_FI_DEV_GPU_UTIL{gpu=\"1\"}").size() == 1);
  CHECK(query("DCGM_FI_DEV_GPU_UTIL{gpu!=\"1\"}").size() == 1);
  CHECK(query("{__name__=~\"DCGM_FI_DEV_GPU_UTIL|DCGM_FI_DEV_FB_USED\", namespace=\"ns1\"}").size() == 3);
  CHECK(query("{__name__=~\"DCGM_.*\", pod!~\"job-.*\",}").size() == 1);
  CHECK(query("{__name__=~'nvidia_gpu_duty_cycle', pod_name=~`job-worker-0|other`}").size() == 1);
}

TEST_CASE("promql: regexes are fully anchored and escapes are PromQL's", "[kubesim][promql]") {
  CHECK(query("DCGM_FI_DEV_GPU_UTIL{pod=~\"job\"}").empty());
  CHECK(query("DCGM_FI_DEV_GPU_UTIL{pod=~\"job-worker-.\"}").size() == 1);
  CHECK(query("DCGM_FI_DEV_GPU_UTIL{pod=~\"job.x-1\"}").size() == 1);
  // "\\." in the query string is the regex \. : a literal dot only.
  CHECK(query("DCGM_FI_DEV_GPU_UTIL{pod=~\"job\\\\.x-.+\"}").size() == 1);
  CHECK(query("DCGM_FI_DEV_GPU_UTIL{pod=~\"job\\\\.worker-0\"}").empty());
  CHECK(query("DCGM_FI_DEV_GPU_UTIL{pod=\"say \\\"hi\\\"\"}").empty());
  // A missing label is the empty string.
  CHECK(query("DCGM_FI_DEV_GPU_UTIL{pod=\"\"}").empty());
  CHECK(query("nvidia_gpu_duty_cycle{pod=\"\"}").size() == 1);
}

TEST_CASE("promql: or adds right-hand series with other label sets", "[kubesim][promql]") {
  auto r = query("DCGM_FI_DEV_GPU_UTIL{gpu=\"0\"} or DCGM_FI_DEV_FB_USED or nvidia_gpu_duty_cycle");
  // FB_USED has the labels of GPU_UTIL{gpu="0"} apart from __name__, so the left side wins.
  REQUIRE(r.size() == 2);
  CHECK(get(r[0].labels, "__name__") == "DCGM_FI_DEV_GPU_UTIL");
  CHECK(get(r[1].labels, "__name__") == "nvidia_gpu_duty_cycle");
  CHECK(query("DCGM_FI_DEV_FB_USED{gpu=\"9\"} OR nvidia_gpu_duty_cycle").size() == 1);
}

TEST_CASE("promql: functions over ranges drop the metric name", "[kubesim][promql]") {
  auto mx = query("max_over_time(DCGM_FI_DEV_GPU_UTIL{gpu=\"0\"}[5m])");
  REQUIRE(mx.size() == 1);
  CHECK(mx[0].v == 90);
  CHECK(get(mx[0].labels, "__name__") == "<none>");
  CHECK(query("min_over_time(DCGM_FI_DEV_GPU_UTIL{gpu=\"0\"}[5m])")[0].v == 80);
  CHECK(query("avg_over_time(DCGM_FI_DEV_GPU_UTIL{gpu=\"0\"}[5m])")[0].v == Approx(85));
  // The range is left-open: 30s holds the samples at T-15s and T only.
  CHECK(query("min_over_time(DCGM_FI_DEV_GPU_UTIL{gpu=\"0\"}[30s])")[0].v == 85);
  CHECK(query("max_over_time(DCGM_FI_DEV_GPU_UTIL{gpu=\"2\"}[10m])")[0].v == 5);
  CHECK(query("count_over_time(nvidia_gpu_duty_cycle[1h])")[0].v == 2);
}

TEST_CASE("promql: arithmetic by a number", "[kubesim][promql]") {
  auto r = query("nvidia_gpu_duty_cycle * 100");
  REQUIRE(r.size() == 1);
  CHECK(r[0].v == 6000);
  CHECK(get(r[0].labels, "__name__") == "<none>");
  CHECK(query("max_over_time(nvidia_gpu_duty_cycle[5m]) / 2")[0].v == 30);
  CHECK(query("2 * (nvidia_gpu_duty_cycle)")[0].v == 120);
  Value s = eval(*parse("3 * 4"), data(), kT);
  CHECK(s.type == ValueType::Scalar);
  CHECK(s.scalar == 12);
}

TEST_CASE("promql: label_replace tags the arms of an or", "[kubesim][promql]") {
  auto r = query(
      "label_replace(max_over_time(DCGM_FI_DEV_GPU_UTIL{pod=~\"job-worker-0\"}[5m]), \"src\", \"util\", "
      "\"__name__\", \".*\")\n or "
      "label_replace(max_over_time(nvidia_gpu_duty_cycle{pod_name=~\"job-worker-0\"}[5m]) "
      "* 100, \"src\", \"duty\", \"__name__\", \".*\")");
  REQUIRE(r.size() == 2);
  CHECK(get(r[0].labels, "src") == "util");
  CHECK(r[0].v == 90);
  CHECK(get(r[1].labels, "src") == "duty");
  CHECK(r[1].v == 6000);
  auto g = query("label_replace(DCGM_FI_DEV_GPU_UTIL, \"short\", \"w$1\", \"pod\", \"job-worker-(.*)\")");
  REQUIRE(g.size() == 2);
  CHECK(get(g[0].labels, "short") == "w0");
  CHECK(get(g[1].labels, "short") == "<none>");  // no match: unchanged
  auto e = query("label_replace(DCGM_FI_DEV_GPU_UTIL{gpu=\"0\"}, \"pod\", \"\", \"gpu\", \".*\")");
  CHECK(get(e[0].labels, "pod") == "<none>");  // an empty result removes the label
}

TEST_CASE("promql: range selectors and query_range", "[kubesim][promql]") {
  Value m = eval(*parse("nvidia_gpu_duty_cycle[1m]"), data(), kT);
  REQUIRE(m.type == ValueType::Matrix);
  REQUIRE(m.matrix.size() == 1);
  CHECK(m.matrix[0].points.size() == 2);
  auto r = eval_range(*parse("DCGM_FI_DEV_GPU_UTIL{gpu=\"0\"}"), data(), kT - 30'000, kT, 15'000);
  REQUIRE(r.size() == 1);
  REQUIRE(r[0].points.size() == 3);
  CHECK(r[0].points[0].v == 80);
  CHECK(r[0].points[2].v == 85);
  CHECK(lookback_ms(*parse("max_over_time(x[10m]) or y")) == 600'000);
  CHECK(parse_duration_ms("1h30m") == 5'400'000);
  CHECK(parse_duration_ms("5x") == -1);
}

TEST_CASE("promql: errors", "[kubesim][promql]") {
  CHECK_THROWS_AS(parse(""), ParseError);
  CHECK_THROWS_WITH(parse("foo{"), Catch::Contains("parse error"));
  CHECK_THROWS_WITH(parse("{pod=~\".*\"}"), Catch::Contains("at least one non-empty matcher"));
  CHECK_THROWS_WITH(parse("foo{pod=~\"(\"}"), Catch::Contains("error parsing regexp"));
  CHECK_THROWS_WITH(parse("max_over_time(foo)"), Catch::Contains("expected type range vector"));
  CHECK_THROWS_WITH(parse("rate(foo[5m])"), Catch::Contains("unknown function with name \"rate\""));
  CHECK_THROWS_WITH(parse("foo or 1"), Catch::Contains("set operator \"or\""));
  CHECK_THROWS_WITH(parse("foo * bar"), Catch::Contains("not supported"));
  CHECK_THROWS_WITH(parse("foo and bar"), Catch::Contains("1:5: parse error"));
  CHECK_THROWS_WITH(parse("foo[5x]"), Catch::Contains("bad duration"));
  CHECK_THROWS_WITH(parse("foo{a=\"x\\q\"}"), Catch::Contains("unknown escape sequence"));
  CHECK_THROWS_WITH(parse("foo{a=\"x}"), Catch::Contains("unterminated quoted string"));
  CHECK_THROWS_WITH(parse("label_replace(foo, \"1x\", \"\", \"a\", \".*\")"),
                    Catch::Contains("invalid destination label name"));
  CHECK_THROWS_WITH(parse("sum(foo)"), Catch::Contains("unknown function"));
}
