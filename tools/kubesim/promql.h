// A small PromQL: a recursive-descent parser and an evaluator for the subset kubesim's
// simulated Prometheus answers (docs/kubesim.md, "GPU metrics (Prometheus)"):
//   vector selectors  metric{l="v", l=~"re", l!="v", l!~"re"}, {__name__=~"a|b", ...}
//   range selectors   SEL[5m] as the argument of max_/min_/avg_/sum_/count_over_time
//   label_replace(EXPR, "dst", "replacement", "src", "regex")
//   EXPR or EXPR, EXPR * NUMBER, EXPR / NUMBER, NUMBER * EXPR, (EXPR), number literals.
// Semantics follow prometheus/promql (engine.go, functions.go): regexes are fully anchored,
// an instant selector takes the newest sample of the last 5 minutes, functions over a range
// and arithmetic drop __name__, and "or" adds the right-hand series whose labels (without
// __name__) do not occur on the left.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace kubesim::promql {

using Labels = std::map<std::string, std::string>;

struct Point {
  int64_t t_ms = 0;
  double v = 0;
};

// A series with its samples in ascending time order.
struct Series {
  Labels labels;
  std::vector<Point> points;
};

// A query the parser rejects; what() reads like Prometheus' "1:5: parse error: ...".
struct ParseError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

enum class ValueType { Scalar, Vector, Matrix };

ExprPtr parse(const std::string& query);
ValueType type_of(const Expr& e);
// How far back before the evaluation time the expression reads samples (the 5 minute
// lookback of instant selectors, or the longest range).
int64_t lookback_ms(const Expr& e);

struct Sample {
  Labels labels;
  double v = 0;
};

struct Value {
  ValueType type = ValueType::Vector;
  double scalar = 0;
  std::vector<Sample> vector;
  std::vector<Series> matrix;
};

// Evaluates e at t_ms over data, which must hold every sample in [t_ms - lookback_ms(e), t_ms].
Value eval(const Expr& e, const std::vector<Series>& data, int64_t t_ms);

// query_range: e evaluated at start, start+step, ... <= end, grouped into one series per label
// set. e must be a scalar or an instant vector.
std::vector<Series> eval_range(const Expr& e, const std::vector<Series>& data, int64_t start_ms,
                               int64_t end_ms, int64_t step_ms);

// "5m", "1h30m", "250ms" (Prometheus durations); nullopt-like -1 when invalid.
int64_t parse_duration_ms(const std::string& text);

}  // namespace kubesim::promql
