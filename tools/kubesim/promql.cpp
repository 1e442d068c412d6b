// The PromQL subset of promql.h: lexing and parsing in one recursive-descent pass.
#include "kubesim/promql.h"

#include <cctype>
#include <regex>
#include <set>

#include "kubesim/promql_ast.h"

namespace kubesim::promql {

namespace {

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == ':'; }
bool ident_char(char c) { return ident_start(c) || std::isdigit(static_cast<unsigned char>(c)); }

bool valid_label_name(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

const std::set<std::string> kOverTime = {"max_over_time", "min_over_time", "avg_over_time", "sum_over_time",
                                         "count_over_time"};

class Parser {
 public:
  explicit Parser(const std::string& q) : m_q(q) {}

  ExprPtr parse_all() {
    ExprPtr e = parse_or();
    skip_ws();
    if (m_pos < m_q.size()) fail(std::string("unexpected character '") + m_q[m_pos] + "'");
    return e;
  }

 private:
  [[noreturn]] void fail(const std::string& msg) const { fail_at(m_pos, msg); }
  [[noreturn]] void fail_at(size_t pos, const std::string& msg) const {
    size_t line = 1, col = 1;
    for (size_t i = 0; i < pos && i < m_q.size(); ++i) {
      if (m_q[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    throw ParseError(std::to_string(line) + ":" + std::to_string(col) + ": parse error: " + msg);
  }

  void skip_ws() {
    while (m_pos < m_q.size()) {
      if (std::isspace(static_cast<unsigned char>(m_q[m_pos]))) {
        ++m_pos;
      } else if (m_q[m_pos] == '#') {
        while (m_pos < m_q.size() && m_q[m_pos] != '\n') ++m_pos;
      } else {
        break;
      }
    }
  }
  char peek() {
    skip_ws();
    return m_pos < m_q.size() ? m_q[m_pos] : '\0';
  }
  void expect(char c, const std::string& what) {
    if (peek() != c)
      fail(m_pos < m_q.size() ? "unexpected character '" + std::string(1, m_q[m_pos]) + "', expected " + what
                              : "unexpected end of input, expected " + what);
    ++m_pos;
  }
  std::string read_ident() {
    size_t start = m_pos;
    while (m_pos < m_q.size() && ident_char(m_q[m_pos])) ++m_pos;
    return m_q.substr(start, m_pos - start);
  }
  // The keyword "or" (case-insensitive) at the current position, not part of a longer name.
  bool at_or() {
    skip_ws();
    if (m_pos + 2 > m_q.size()) return false;
    if (std::tolower(static_cast<unsigned char>(m_q[m_pos])) != 'o' ||
        std::tolower(static_cast<unsigned char>(m_q[m_pos + 1])) != 'r')
      return false;
    return m_pos + 2 == m_q.size() || !ident_char(m_q[m_pos + 2]);
  }

  ExprPtr parse_or() {
    ExprPtr lhs = parse_mul();
    while (at_or()) {
      const size_t at = m_pos;
      m_pos += 2;
      ExprPtr rhs = parse_mul();
      if (lhs->type != ValueType::Vector || rhs->type != ValueType::Vector)
        fail_at(at, "set operator \"or\" not allowed in binary scalar expression");
      auto e = std::make_shared<Expr>();
      e->kind = Expr::Binary;
      e->op = 'o';
      e->lhs = lhs;
      e->rhs = rhs;
      e->type = ValueType::Vector;
      lhs = e;
    }
    return lhs;
  }

  ExprPtr parse_mul() {
    ExprPtr lhs = parse_unary();
    for (char c = peek(); c == '*' || c == '/'; c = peek()) {
      const size_t at = m_pos++;
      ExprPtr rhs = parse_unary();
      if (lhs->type == ValueType::Matrix || rhs->type == ValueType::Matrix)
        fail_at(at, "binary expression must contain only scalar and instant vector types");
      if (lhs->type == ValueType::Vector && rhs->type == ValueType::Vector)
        fail_at(at, "arithmetic between two instant vectors is not supported by kubesim");
      auto e = std::make_shared<Expr>();
      e->kind = Expr::Binary;
      e->op = c;
      e->lhs = lhs;
      e->rhs = rhs;
      e->type = lhs->type == ValueType::Scalar && rhs->type == ValueType::Scalar ? ValueType::Scalar
                                                                                 : ValueType::Vector;
      lhs = e;
    }
    return lhs;
  }

  ExprPtr parse_unary() {
    const char c = peek();
    if (c == '(') {
      ++m_pos;
      ExprPtr e = parse_or();
      expect(')', "\")\"");
      return e;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return parse_number();
    if (c == '{') return parse_selector("");
    if (ident_start(c)) {
      if (at_or()) fail("unexpected <op:or>");
      const size_t at = m_pos;
      std::string name = read_ident();
      if (peek() == '(') return parse_call(name, at);
      return parse_selector(name);
    }
    if (c == '\0') fail("unexpected end of input");
    fail(std::string("unexpected character '") + c + "'");
  }

  ExprPtr parse_number() {
    const size_t start = m_pos;
    size_t used = 0;
    double v = 0;
    try {
      v = std::stod(m_q.substr(start), &used);
    } catch (const std::exception&) {
      fail("bad number");
    }
    m_pos = start + used;
    if (m_pos < m_q.size() && ident_char(m_q[m_pos])) fail_at(start, "bad number or duration syntax");
    auto e = std::make_shared<Expr>();
    e->kind = Expr::Number;
    e->number = v;
    e->type = ValueType::Scalar;
    return e;
  }

  std::string parse_string() {
    const char q = peek();
    if (q != '"' && q != '\'' && q != '`') fail("unexpected character, expected string");
    const size_t start = m_pos++;
    std::string out;
    while (true) {
      if (m_pos >= m_q.size()) fail_at(start, "unterminated quoted string");
      char c = m_q[m_pos++];
      if (c == q) break;
      if (c == '\\' && q != '`') {
        if (m_pos >= m_q.size()) fail_at(start, "unterminated quoted string");
        char e = m_q[m_pos++];
        switch (e) {
          case '\\':
            out += '\\';
            break;
          case '"':
            out += '"';
            break;
          case '\'':
            out += '\'';
            break;
          case 'n':
            out += '\n';
            break;
          case 't':
            out += '\t';
            break;
          case 'r':
            out += '\r';
            break;
          case 'a':
            out += '\a';
            break;
          case 'b':
            out += '\b';
            break;
          case 'f':
            out += '\f';
            break;
          case 'v':
            out += '\v';
            break;
          default:
            fail_at(m_pos - 2, std::string("unknown escape sequence '\\") + e + "'");
        }
        continue;
      }
      out += c;
    }
    return out;
  }

  std::shared_ptr<std::regex> compile(const std::string& re, size_t at) {
    try {
      return std::make_shared<std::regex>("^(?:" + re + ")$", std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
      fail_at(at, "error parsing regexp: invalid regular expression \"" + re + "\": " + e.what());
    }
  }

  ExprPtr parse_selector(const std::string& name) {
    auto e = std::make_shared<Expr>();
    e->kind = Expr::Selector;
    e->type = ValueType::Vector;
    if (!name.empty()) e->matchers.push_back({"__name__", Matcher::Eq, name, nullptr});
    if (peek() == '{') {
      ++m_pos;
      while (peek() != '}') {
        const size_t at = m_pos;
        std::string label = read_ident();
        if (!valid_label_name(label)) fail_at(at, "unexpected character inside braces, expected label name");
        Matcher m;
        m.name = label;
        skip_ws();
        const std::string op = m_q.substr(m_pos, 2);
        if (op == "=~")
          m.op = Matcher::Re;
        else if (op == "!=")
          m.op = Matcher::Ne;
        else if (op == "!~")
          m.op = Matcher::Nre;
        else if (!op.empty() && op[0] == '=')
          m.op = Matcher::Eq;
        else
          fail("unexpected character inside braces, expected label matching operator");
        m_pos += m.op == Matcher::Eq ? 1 : 2;
        const size_t vat = (skip_ws(), m_pos);
        m.value = parse_string();
        if (m.op == Matcher::Re || m.op == Matcher::Nre) m.re = compile(m.value, vat);
        e->matchers.push_back(std::move(m));
        if (peek() == ',')
          ++m_pos;
        else if (peek() != '}')
          fail("unexpected character inside braces, expected \",\" or \"}\"");
      }
      ++m_pos;
    }
    bool non_empty = false;
    for (const auto& m : e->matchers) non_empty = non_empty || !m.matches("");
    if (!non_empty) fail("vector selector must contain at least one non-empty matcher");
    if (peek() == '[') {
      const size_t at = ++m_pos;
      const size_t end = m_q.find(']', m_pos);
      if (end == std::string::npos) fail_at(at, "unterminated range selector");
      std::string text = m_q.substr(m_pos, end - m_pos);
      while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
      while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.erase(0, 1);
      e->range_ms = parse_duration_ms(text);
      if (e->range_ms <= 0) fail_at(at, "bad duration syntax: \"" + text + "\"");
      m_pos = end + 1;
      e->type = ValueType::Matrix;
    }
    return e;
  }

  ExprPtr parse_call(const std::string& name, size_t at) {
    auto e = std::make_shared<Expr>();
    e->kind = Expr::Call;
    e->func = name;
    e->type = ValueType::Vector;
    ++m_pos;  // '('
    if (kOverTime.count(name)) {
      e->args.push_back(parse_or());
      expect(')', "\")\"");
      if (e->args[0]->type != ValueType::Matrix)
        fail_at(at, "expected type range vector in call to function \"" + name + "\"");
      return e;
    }
    if (name == "label_replace") {
      e->args.push_back(parse_or());
      if (e->args[0]->type != ValueType::Vector)
        fail_at(at, "expected type instant vector in call to function \"label_replace\"");
      for (int i = 0; i < 4; ++i) {
        expect(',', "\",\"");
        skip_ws();
        const size_t sat = m_pos;
        e->strings.push_back(parse_string());
        if (i == 3) e->re = compile(e->strings[3], sat);
      }
      expect(')', "\")\"");
      if (!valid_label_name(e->strings[0]))
        fail_at(at, "invalid destination label name in label_replace(): " + e->strings[0]);
      return e;
    }
    fail_at(at, "unknown function with name \"" + name + "\"");
  }

  const std::string& m_q;
  size_t m_pos = 0;
};

}  // namespace

bool Matcher::matches(const std::string& v) const {
  switch (op) {
    case Eq:
      return v == value;
    case Ne:
      return v != value;
    case Re:
      return std::regex_match(v, *re);
    case Nre:
      return !std::regex_match(v, *re);
  }
  return false;
}

ExprPtr parse(const std::string& query) {
  if (query.find_first_not_of(" \t\r\n") == std::string::npos)
    throw ParseError("1:1: parse error: no expression found in input");
  return Parser(query).parse_all();
}

ValueType type_of(const Expr& e) { return e.type; }

int64_t lookback_ms(const Expr& e) {
  int64_t own = e.kind == Expr::Selector ? (e.range_ms > 0 ? e.range_ms : kLookbackMs) : 0;
  for (const auto& a : e.args) own = std::max(own, lookback_ms(*a));
  if (e.lhs) own = std::max(own, lookback_ms(*e.lhs));
  if (e.rhs) own = std::max(own, lookback_ms(*e.rhs));
  return own;
}

int64_t parse_duration_ms(const std::string& text) {
  if (text.empty()) return -1;
  int64_t total = 0;
  size_t i = 0;
  while (i < text.size()) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) return -1;
    int64_t n = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
      n = n * 10 + (text[i++] - '0');
    std::string unit;
    while (i < text.size() && std::isalpha(static_cast<unsigned char>(text[i]))) unit += text[i++];
    int64_t ms = 0;
    if (unit == "ms")
      ms = 1;
    else if (unit == "s")
      ms = 1000;
    else if (unit == "m")
      ms = 60'000;
    else if (unit == "h")
      ms = 3'600'000;
    else if (unit == "d")
      ms = 86'400'000;
    else if (unit == "w")
      ms = 7 * 86'400'000LL;
    else if (unit == "y")
      ms = 365 * 86'400'000LL;
    else
      return -1;
    total += n * ms;
  }
  return total;
}

}  // namespace kubesim::promql
