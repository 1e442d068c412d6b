#include "kubesim/selector.h"

#include "kubesim/store.h"

#include "core/text.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <optional>
#include <string_view>

namespace kubesim {

namespace {

using Op = Requirement::Op;

using trainctl::trim;

[[noreturn]] void bad(const std::string& what) {
  throw StatusError(400, "BadRequest", "unable to parse requirement: " + what);
}

// Splits at commas that are not inside parentheses.
std::vector<std::string> split_top(const std::string& s) {
  std::vector<std::string> out;
  int depth = 0;
  std::string cur;
  for (char c : s) {
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

bool valid_key(const std::string& k) {
  if (k.empty() || k.size() > 317) return false;
  return std::all_of(k.begin(), k.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.' || c == '/';
  });
}

// k8s.io/apimachinery pkg/api/validate/content/kube.go IsLabelValue: empty, or at most 63 characters
// of [-A-Za-z0-9_.] that begin and end with [A-Za-z0-9].
bool valid_value(const std::string& v) {
  auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  if (v.empty()) return true;
  return v.size() <= 63 && alnum(v.front()) && alnum(v.back()) &&
         std::all_of(v.begin(), v.end(), [&](char c) { return alnum(c) || c == '-' || c == '_' || c == '.'; });
}

// "key!=value", "key==value" or "key=value" into r (Equals or NotEquals); false for none.
bool equality(const std::string& s, Requirement& r) {
  size_t pos;
  if ((pos = s.find("!=")) != std::string::npos) {
    r.op = Op::NotEquals;
    r.key = trim(s.substr(0, pos));
    r.values = {trim(s.substr(pos + 2))};
  } else if ((pos = s.find("==")) != std::string::npos) {
    r.key = trim(s.substr(0, pos));
    r.values = {trim(s.substr(pos + 2))};
  } else if ((pos = s.find('=')) != std::string::npos) {
    r.key = trim(s.substr(0, pos));
    r.values = {trim(s.substr(pos + 1))};
  } else {
    return false;
  }
  return true;
}

// A label value as strconv.ParseInt(v, 10, 64) reads it (an optional sign, decimal digits).
std::optional<int64_t> int_value(std::string_view v) {
  if (!v.empty() && v[0] == '+') v.remove_prefix(1);
  if (v.empty() || v[0] == '+') return std::nullopt;
  int64_t n = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (ec != std::errc() || end != v.data() + v.size()) return std::nullopt;
  return n;
}

Requirement parse_one(const std::string& raw) {
  std::string s = trim(raw);
  if (s.empty()) bad("found '', expected: !, identifier, or 'end of string'");
  Requirement r;
  if (s[0] == '!') {
    r.key = trim(s.substr(1));
    r.op = Op::DoesNotExist;
    if (!valid_key(r.key)) bad("invalid label key \"" + r.key + "\"");
    return r;
  }
  // set-based: key in (a,b) / key notin (a,b)
  auto paren = s.find('(');
  if (paren != std::string::npos) {
    std::string head = trim(s.substr(0, paren));
    if (s.back() != ')') bad("found '" + s + "', expected: ')'");
    auto sp = head.find_last_of(" \t");
    if (sp == std::string::npos) bad("found '(', expected: in, notin, =, ==, !=, gt, lt");
    std::string op = head.substr(sp + 1);
    r.key = trim(head.substr(0, sp));
    if (op == "in") r.op = Op::In;
    else if (op == "notin") r.op = Op::NotIn;
    else bad("found '" + op + "', expected: in, notin, =, ==, !=, gt, lt");
    std::string inner = s.substr(paren + 1, s.size() - paren - 2);
    size_t start = 0;
    for (;;) {
      size_t c = inner.find(',', start);
      std::string v = trim(inner.substr(start, c == std::string::npos ? std::string::npos : c - start));
      if (!valid_value(v)) bad("invalid label value: \"" + v + "\"");
      r.values.push_back(v);
      if (c == std::string::npos) break;
      start = c + 1;
    }
    if (!valid_key(r.key)) bad("invalid label key \"" + r.key + "\"");
    return r;
  }
  // key>N, key<N: N an integer (k8s.io/apimachinery pkg/labels/selector.go NewRequirement,
  // selection.GreaterThan/LessThan; kube-apiserver parses a list's labelSelector with
  // labels.Parse, so these are valid there too).
  if (const size_t cmp = s.find_first_of("<>"); cmp != std::string::npos) {
    r.op = s[cmp] == '>' ? Op::GreaterThan : Op::LessThan;
    r.key = trim(s.substr(0, cmp));
    const std::string v = trim(s.substr(cmp + 1));
    if (!v.empty() && (v[0] == '=' || v[0] == '<' || v[0] == '>'))
      bad("found '" + std::string(1, v[0]) + "', expected: identifier");
    if (!valid_key(r.key)) bad("invalid label key \"" + r.key + "\"");
    if (!valid_value(v) || !int_value(v)) bad("for 'Gt', 'Lt' operators, the value must be an integer");
    r.values = {v};
    return r;
  }
  if (!equality(s, r)) {
    r.key = s;
    r.op = Op::Exists;
  }
  if (!valid_key(r.key)) bad("invalid label key \"" + r.key + "\"");
  for (const auto& v : r.values)
    if (!valid_value(v)) bad("invalid label value: \"" + v + "\"");
  return r;
}

bool eval(const Requirement& r, bool present, std::string_view value) {
  auto in = [&] { return std::find(r.values.begin(), r.values.end(), value) != r.values.end(); };
  switch (r.op) {
    case Op::Equals: return present && value == r.values[0];
    case Op::NotEquals: return !present || value != r.values[0];
    case Op::In: return present && in();
    case Op::NotIn: return !present || !in();
    case Op::Exists: return present;
    case Op::DoesNotExist: return !present;
    case Op::GreaterThan:
    case Op::LessThan: {
      // Requirement.Matches: false for a label absent or not an integer.
      const std::optional<int64_t> have = present ? int_value(value) : std::nullopt;
      if (!have) return false;
      const int64_t want = *int_value(r.values[0]);
      return r.op == Op::GreaterThan ? *have > want : *have < want;
    }
  }
  return false;
}

}  // namespace

LabelSelector LabelSelector::parse(const std::string& text) {
  LabelSelector sel;
  if (trim(text).empty()) return sel;
  for (const auto& part : split_top(text)) sel.m_reqs.push_back(parse_one(part));
  return sel;
}

bool LabelSelector::matches(const nlohmann::json& labels) const {
  return empty() || matches(LabelValues::of_labels(labels));
}

bool LabelSelector::matches(const LabelValues& labels) const {
  for (const auto& r : m_reqs) {
    const std::optional<std::string_view> value = labels.get(r.key);
    if (!eval(r, value.has_value(), value.value_or(std::string_view()))) return false;
  }
  return true;
}

FieldSelector FieldSelector::parse(const std::string& text) {
  FieldSelector sel;
  if (trim(text).empty()) return sel;
  for (const auto& part : split_top(text)) {
    std::string s = trim(part);
    Requirement r;
    if (!equality(s, r) || r.key.empty())
      throw StatusError(400, "BadRequest", "invalid selector: '" + text + "'; can't understand '" + s + "'");
    std::vector<std::string> path;
    for (size_t start = 0;;) {
      size_t dot = r.key.find('.', start);
      path.push_back(r.key.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
      if (dot == std::string::npos) break;
      start = dot + 1;
    }
    sel.m_same_path.push_back(!sel.m_paths.empty() && sel.m_paths.back() == path);
    sel.m_reqs.push_back(r);
    sel.m_paths.push_back(std::move(path));
  }
  return sel;
}

std::string field_value(const nlohmann::json& obj, const std::string& path) {
  const nlohmann::json* cur = &obj;
  size_t start = 0;
  while (start <= path.size()) {
    size_t dot = path.find('.', start);
    std::string part = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (!cur->is_object() || !cur->contains(part)) return "";
    cur = &(*cur)[part];
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  if (cur->is_string()) return cur->get<std::string>();
  if (cur->is_null()) return "";
  return cur->dump();
}

namespace {

// The node at path in obj, or null when absent.
const nlohmann::json* find_path(const nlohmann::json& obj, const std::vector<std::string>& path) {
  const nlohmann::json* cur = &obj;
  for (const auto& part : path) {
    if (!cur->is_object()) return nullptr;
    auto it = cur->find(part);
    if (it == cur->end()) return nullptr;
    cur = &*it;
  }
  return cur;
}

}  // namespace

bool FieldSelector::matches(const nlohmann::json& obj) const {
  // One lookup per path part, none for a path the previous requirement looked up
  // (status.phase!=Failed,status.phase!=Succeeded), and a string value compared where it
  // is (most lists select on strings: status.phase, spec.nodeName, metadata.name).
  const nlohmann::json* cur = nullptr;
  for (size_t i = 0; i < m_reqs.size(); ++i) {
    const Requirement& r = m_reqs[i];
    if (i == 0 || !m_same_path[i]) cur = find_path(obj, m_paths[i]);
    bool equal;
    if (cur && cur->is_string())
      equal = cur->get_ref<const std::string&>() == r.values[0];
    else
      equal = (!cur || cur->is_null() ? std::string() : cur->dump()) == r.values[0];
    if (r.op == Op::Equals ? !equal : equal) return false;
  }
  return true;
}

std::string FieldSelector::bind(const std::vector<std::string>& selectable) {
  m_index.clear();
  std::string unknown;
  for (const auto& r : m_reqs) {
    const auto it = std::find(selectable.begin(), selectable.end(), r.key);
    if (it == selectable.end() && unknown.empty()) unknown = r.key;
    m_index.push_back(static_cast<size_t>(it - selectable.begin()));
  }
  return unknown;
}

bool FieldSelector::matches(const FieldValues& values) const {
  for (size_t i = 0; i < m_reqs.size(); ++i) {
    const Requirement& r = m_reqs[i];
    const bool equal = values.get(i < m_index.size() ? m_index[i] : values.size()) == r.values[0];
    if (r.op == Op::Equals ? !equal : equal) return false;
  }
  return true;
}

}  // namespace kubesim
