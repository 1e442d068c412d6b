// The syntax tree of the PromQL subset (promql.h), shared by the parser and the evaluator.
#pragma once

#include <regex>

#include "kubesim/promql.h"

namespace kubesim::promql {

inline constexpr int64_t kLookbackMs = 5 * 60'000;  // Prometheus' default lookback delta

struct Matcher {
  enum Op { Eq, Ne, Re, Nre };
  std::string name;
  Op op = Eq;
  std::string value;
  std::shared_ptr<std::regex> re;  // anchored; for Re and Nre
  bool matches(const std::string& v) const;
};

struct Expr {
  enum Kind { Number, Selector, Call, Binary };
  Kind kind = Number;
  ValueType type = ValueType::Scalar;
  double number = 0;                 // Number
  std::vector<Matcher> matchers;     // Selector (a metric name is an __name__ matcher)
  int64_t range_ms = 0;              // Selector: > 0 for a range selector
  std::string func;                  // Call
  std::vector<ExprPtr> args;         // Call
  std::vector<std::string> strings;  // Call label_replace: dst, replacement, src, regex
  std::shared_ptr<std::regex> re;    // Call label_replace: the anchored regex
  char op = 0;                       // Binary: 'o' (or), '*', '/'
  ExprPtr lhs, rhs;                  // Binary
};

}  // namespace kubesim::promql
