// Evaluation of the PromQL subset (promql.h) over in-memory series, after prometheus/promql
// engine.go (selectors, lookback, set and arithmetic operators) and functions.go
// (*_over_time, label_replace).
#include <algorithm>
#include <set>

#include "kubesim/promql.h"
#include "kubesim/promql_ast.h"

namespace kubesim::promql {

namespace {

bool selects(const Expr& e, const Labels& labels) {
  for (const auto& m : e.matchers) {
    auto it = labels.find(m.name);
    if (!m.matches(it == labels.end() ? std::string() : it->second)) return false;
  }
  return true;
}

Labels without_name(Labels l) {
  l.erase("__name__");
  return l;
}

double over_time(const std::string& func, const std::vector<Point>& pts) {
  double out = pts[0].v;
  if (func == "max_over_time") {
    for (const auto& p : pts) out = std::max(out, p.v);
  } else if (func == "min_over_time") {
    for (const auto& p : pts) out = std::min(out, p.v);
  } else if (func == "count_over_time") {
    out = static_cast<double>(pts.size());
  } else {
    out = 0;
    for (const auto& p : pts) out += p.v;
    if (func == "avg_over_time") out /= static_cast<double>(pts.size());
  }
  return out;
}

// Go regexp Expand for the replacement of label_replace: $1, ${1}, $name, ${name}, $$.
std::string expand(const std::string& tmpl, const std::smatch& m) {
  std::string out;
  for (size_t i = 0; i < tmpl.size(); ++i) {
    if (tmpl[i] != '$' || i + 1 >= tmpl.size()) {
      out += tmpl[i];
      continue;
    }
    if (tmpl[i + 1] == '$') {
      out += '$';
      ++i;
      continue;
    }
    std::string name;
    size_t j = i + 1;
    if (tmpl[j] == '{') {
      const size_t close = tmpl.find('}', j);
      if (close == std::string::npos) {
        out += tmpl[i];
        continue;
      }
      name = tmpl.substr(j + 1, close - j - 1);
      j = close + 1;
    } else {
      while (j < tmpl.size() && (std::isalnum(static_cast<unsigned char>(tmpl[j])) || tmpl[j] == '_'))
        name += tmpl[j++];
    }
    if (name.empty()) {
      out += tmpl[i];
      continue;
    }
    if (std::all_of(name.begin(), name.end(),
                    [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
      const size_t g = std::stoul(name);
      if (g < m.size()) out += m[g].str();
    }  // named groups: std::regex has none, so they expand to ""
    i = j - 1;
  }
  return out;
}

Value eval_selector(const Expr& e, const std::vector<Series>& data, int64_t t) {
  Value out;
  out.type = e.type;
  const int64_t from = t - (e.range_ms > 0 ? e.range_ms : kLookbackMs);
  for (const auto& s : data) {
    if (!selects(e, s.labels)) continue;
    auto lo = std::upper_bound(s.points.begin(), s.points.end(), from,
                               [](int64_t v, const Point& p) { return v < p.t_ms; });
    auto hi = std::upper_bound(s.points.begin(), s.points.end(), t,
                               [](int64_t v, const Point& p) { return v < p.t_ms; });
    if (lo >= hi) continue;
    if (e.range_ms > 0)
      out.matrix.push_back({s.labels, std::vector<Point>(lo, hi)});
    else
      out.vector.push_back({s.labels, (hi - 1)->v});
  }
  return out;
}

Value eval_call(const Expr& e, const std::vector<Series>& data, int64_t t) {
  Value arg = eval(*e.args[0], data, t);
  Value out;
  if (e.func == "label_replace") {
    const std::string &dst = e.strings[0], &repl = e.strings[1], &src = e.strings[2];
    for (auto& s : arg.vector) {
      auto it = s.labels.find(src);
      const std::string value = it == s.labels.end() ? "" : it->second;
      std::smatch m;
      if (std::regex_match(value, m, *e.re)) {
        const std::string v = expand(repl, m);
        if (v.empty())
          s.labels.erase(dst);
        else
          s.labels[dst] = v;
      }
      out.vector.push_back(std::move(s));
    }
    return out;
  }
  for (const auto& s : arg.matrix)
    out.vector.push_back({without_name(s.labels), over_time(e.func, s.points)});
  return out;
}

double arith(char op, double a, double b) { return op == '*' ? a * b : a / b; }

Value eval_binary(const Expr& e, const std::vector<Series>& data, int64_t t) {
  Value l = eval(*e.lhs, data, t), r = eval(*e.rhs, data, t);
  Value out;
  out.type = e.type;
  if (e.op == 'o') {
    std::set<Labels> seen;
    for (const auto& s : l.vector) seen.insert(without_name(s.labels));
    out.vector = std::move(l.vector);
    for (auto& s : r.vector)
      if (!seen.count(without_name(s.labels))) out.vector.push_back(std::move(s));
    return out;
  }
  if (l.type == ValueType::Scalar && r.type == ValueType::Scalar) {
    out.scalar = arith(e.op, l.scalar, r.scalar);
    return out;
  }
  const bool vector_left = l.type == ValueType::Vector;
  for (auto& s : vector_left ? l.vector : r.vector) {
    const double v = vector_left ? arith(e.op, s.v, r.scalar) : arith(e.op, l.scalar, s.v);
    out.vector.push_back({without_name(std::move(s.labels)), v});
  }
  return out;
}

}  // namespace

Value eval(const Expr& e, const std::vector<Series>& data, int64_t t_ms) {
  switch (e.kind) {
    case Expr::Number: {
      Value v;
      v.type = ValueType::Scalar;
      v.scalar = e.number;
      return v;
    }
    case Expr::Selector:
      return eval_selector(e, data, t_ms);
    case Expr::Call:
      return eval_call(e, data, t_ms);
    case Expr::Binary:
      return eval_binary(e, data, t_ms);
  }
  return {};
}

std::vector<Series> eval_range(const Expr& e, const std::vector<Series>& data, int64_t start_ms,
                               int64_t end_ms, int64_t step_ms) {
  std::map<Labels, std::vector<Point>> grouped;
  for (int64_t t = start_ms; t <= end_ms; t += step_ms) {
    Value v = eval(e, data, t);
    if (v.type == ValueType::Scalar) grouped[{}].push_back({t, v.scalar});
    for (const auto& s : v.vector) grouped[s.labels].push_back({t, s.v});
  }
  std::vector<Series> out;
  for (auto& [labels, points] : grouped) out.push_back({labels, std::move(points)});
  return out;
}

}  // namespace kubesim::promql
