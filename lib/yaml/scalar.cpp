#include "yaml/scalar.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <regex>
#include <string>
#include <vector>

#include "yaml/number.h"

namespace trainctl::yaml {

namespace {

using detail::is_timestamp;
using detail::parse_float;
using detail::parse_go_integer;
using detail::underscores_ok;

// resolveTable of goyaml.v2/resolve.go: which rules the first byte allows.
char hint(char c) {
  if (c == '+' || c == '-') return 'S';  // sign
  if (c >= '0' && c <= '9') return 'D';  // digit
  if (c == '.') return '.';              // float, or a word of the map below
  static constexpr std::string_view words = "yYnNtTfFoO~";
  return words.find(c) != std::string_view::npos ? 'M' : 0;  // a word of the map below
}

// resolveMap of goyaml.v2/resolve.go: each word in exactly these spellings.
struct Words {
  ScalarKind kind;
  double number;  // a bool's 1 or 0, a float's value
  std::vector<std::string_view> spellings;
};
constexpr double kInf = std::numeric_limits<double>::infinity();
const Words kWords[] = {
    {ScalarKind::Bool, 1, {"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"}},
    {ScalarKind::Bool, 0, {"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"}},
    {ScalarKind::Null, 0, {"~", "null", "Null", "NULL"}},
    {ScalarKind::Float, std::numeric_limits<double>::quiet_NaN(), {".nan", ".NaN", ".NAN"}},
    {ScalarKind::Float, kInf, {".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"}},
    {ScalarKind::Float, -kInf, {"-.inf", "-.Inf", "-.INF"}},
};

std::string without_underscores(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s)
    if (c != '_') out.push_back(c);
  return out;
}

// yamlStyleFloat of resolve.go: ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$
bool yaml_style_float(std::string_view s) {
  size_t i = 0;
  auto digits = [&] {
    const size_t start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return i > start;
  };
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (!digits()) return false;
  } else {
    if (!digits()) return false;
    if (i < s.size() && s[i] == '.') {
      ++i;
      digits();
    }
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    if (!digits()) return false;
  }
  return i == s.size();
}

// A text that starts with '.' and is not in the map: strconv.ParseFloat(in, 64) as it is
// (underscores included), which only takes \.[0-9]+([eE][-+]?[0-9]+)? here.
std::optional<double> dot_float(std::string_view s) {
  if (!underscores_ok(s)) return std::nullopt;
  const std::string plain = without_underscores(s);
  if (plain.size() < 2 || plain[1] < '0' || plain[1] > '9' || !yaml_style_float(plain)) return std::nullopt;
  return parse_float(plain);
}

// go-yaml v2 isBase60Float (encode.go): ^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$
bool is_base60_float(std::string_view s) {
  size_t i = 0;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
  if (i >= s.size() || s[i] < '0' || s[i] > '9') return false;
  while (i < s.size() && ((s[i] >= '0' && s[i] <= '9') || s[i] == '_')) ++i;
  int groups = 0;
  while (i < s.size() && s[i] == ':') {
    ++i;
    const size_t start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9' && i - start < 2) ++i;
    const size_t n = i - start;
    if (n == 0 || (n == 2 && s[start] > '5')) return false;
    ++groups;
  }
  if (groups == 0) return false;
  if (i < s.size() && s[i] == '.') {
    for (++i; i < s.size() && ((s[i] >= '0' && s[i] <= '9') || s[i] == '_');) ++i;
  }
  return i == s.size();
}

}  // namespace

const char* kind_tag(ScalarKind kind) {
  static constexpr const char* kTags[] = {"!!null", "!!bool", "!!int", "!!float", "!!timestamp", "!!str"};
  return kTags[static_cast<int>(kind)];
}

ScalarKind resolve_plain(std::string_view text, nlohmann::json* value) {
  auto result = [&](ScalarKind kind, nlohmann::json v) {
    if (value) *value = std::move(v);
    return kind;
  };
  auto text_as = [&](ScalarKind kind) { return value ? result(kind, std::string(text)) : kind; };
  if (text.empty()) return result(ScalarKind::Null, nullptr);
  const char h = hint(text[0]);
  if (h == 0) return text_as(ScalarKind::String);
  for (const Words& w : kWords) {
    if (std::find(w.spellings.begin(), w.spellings.end(), text) == w.spellings.end()) continue;
    if (w.kind == ScalarKind::Null) return result(ScalarKind::Null, nullptr);
    if (w.kind == ScalarKind::Bool) return result(ScalarKind::Bool, w.number != 0);
    return result(ScalarKind::Float, w.number);
  }
  if (h == '.') {
    if (auto f = dot_float(text)) return result(ScalarKind::Float, *f);
  } else if (h == 'D' || h == 'S') {
    if (is_timestamp(text)) return text_as(ScalarKind::Timestamp);
    const std::string plain = without_underscores(text);
    if (auto i = parse_go_integer(plain)) return result(ScalarKind::Int, std::move(*i));
    if (yaml_style_float(plain)) {
      if (auto f = parse_float(plain)) return result(ScalarKind::Float, *f);
    }
  }
  return text_as(ScalarKind::String);
}

bool go_yaml_quotes(std::string_view text) {
  return resolve_plain(text) != ScalarKind::String || is_base60_float(text);
}

bool pyyaml_reads_plain_differently(std::string_view text) {
  if (text.empty()) return true;  // null
  static constexpr std::string_view first = "yYnNtTfFoO-+0123456789.<~=";
  if (first.find(text[0]) == std::string_view::npos) return false;  // the resolvers' first characters
  // The patterns of yaml/resolver.py (re.X: its spaces removed, those in [ \t] kept).
  static const std::regex patterns(
      "yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF"  // bool
      "|[-+]?(?:[0-9][0-9_]*)\\.[0-9_]*(?:[eE][-+][0-9]+)?|\\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?"  // float
      "|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\\.[0-9_]*|[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN)"
      "|[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+"  // int
      "|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+"
      "|<<|~|null|Null|NULL|="  // merge, null, value
      "|[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]"  // timestamp
      "|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9]"
      "(?:\\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?");
  return std::regex_match(text.begin(), text.end(), patterns);
}

bool needs_quotes(std::string_view text) { return go_yaml_quotes(text) || pyyaml_reads_plain_differently(text); }

}  // namespace trainctl::yaml
