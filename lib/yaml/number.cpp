// Go's strconv rules as go-yaml v2 (goyaml.v2/resolve.go) and sigs.k8s.io/yaml (yaml.go) use
// them. Upstream: Go src/strconv/atoi.go (ParseUint, ParseInt, underscoreOK), atof.go
// (ParseFloat), ftoa.go (FormatFloat 'g'), encoding/json/encode.go (floatEncoder).
#include "yaml/number.h"

#include <locale.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace trainctl::yaml::detail {

namespace {

int digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'z') return c - 'a' + 10;
  if (c >= 'A' && c <= 'Z') return c - 'A' + 10;
  return 99;
}

char lower(char c) { return static_cast<char>(c | 0x20); }

// ParseUint(s, 0, 64).
std::optional<std::uint64_t> parse_go_unsigned(std::string_view s) {
  if (s.empty()) return std::nullopt;
  unsigned base = 10;
  if (s[0] == '0') {
    if (s.size() >= 3 && lower(s[1]) == 'b') {
      base = 2, s.remove_prefix(2);
    } else if (s.size() >= 3 && lower(s[1]) == 'o') {
      base = 8, s.remove_prefix(2);
    } else if (s.size() >= 3 && lower(s[1]) == 'x') {
      base = 16, s.remove_prefix(2);
    } else {
      base = 8, s.remove_prefix(1);  // "0" alone is octal 0
    }
  }
  std::uint64_t n = 0;
  for (char c : s) {
    const auto d = static_cast<unsigned>(digit_value(c));
    if (d >= base) return std::nullopt;
    if (n > (std::numeric_limits<std::uint64_t>::max() - d) / base) return std::nullopt;  // ErrRange
    n = n * base + d;
  }
  return n;
}

}  // namespace

std::optional<nlohmann::json> parse_go_integer(std::string_view s) {
  if (s.empty()) return std::nullopt;
  const bool neg = s[0] == '-';
  const std::string_view digits = (s[0] == '+' || s[0] == '-') ? s.substr(1) : s;
  if (auto u = parse_go_unsigned(digits)) {
    constexpr std::uint64_t limit = std::uint64_t{1} << 63;
    if (!neg && *u < limit) return nlohmann::json(static_cast<std::int64_t>(*u));
    if (neg && *u <= limit) return nlohmann::json(static_cast<std::int64_t>(0 - *u));
    if (!neg && s[0] != '+') return nlohmann::json(*u);  // ParseUint takes no sign
  }
  return std::nullopt;
}

std::optional<double> parse_float(const std::string& s) {
  // strtod in the "C" locale: the decimal point is '.' whatever LC_NUMERIC says.
  static const locale_t c_locale = newlocale(LC_ALL_MASK, "C", static_cast<locale_t>(nullptr));
  errno = 0;
  char* end = nullptr;
  const double v = strtod_l(s.c_str(), &end, c_locale);
  if (end != s.c_str() + s.size()) return std::nullopt;
  if (errno == ERANGE && std::isinf(v)) return std::nullopt;  // overflow; underflow gives 0 as in Go
  return v;
}

bool underscores_ok(std::string_view s) {
  char saw = '^';  // ^ start, 0 digit or base prefix, _ underscore, ! anything else
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  bool hex = false;
  size_t i = 0;
  if (s.size() >= 2 && s[0] == '0' && (lower(s[1]) == 'b' || lower(s[1]) == 'o' || lower(s[1]) == 'x')) {
    i = 2;
    saw = '0';
    hex = lower(s[1]) == 'x';
  }
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if ((c >= '0' && c <= '9') || (hex && lower(c) >= 'a' && lower(c) <= 'f')) {
      saw = '0';
    } else if (c == '_') {
      if (saw != '0') return false;
      saw = '_';
    } else {
      if (saw == '_') return false;
      saw = '!';
    }
  }
  return saw != '_';
}

nlohmann::json json_number(double f) {
  if (f == std::trunc(f) && std::fabs(f) < 1e21) {
    if (f >= -9223372036854775808.0 && f < 9223372036854775808.0) return static_cast<std::int64_t>(f);
    if (f >= 0 && f < 18446744073709551616.0) return static_cast<std::uint64_t>(f);
  }
  return f;
}

std::string float_key(double f) {
  if (std::isnan(f)) return ".nan";
  // Go converts to float32 first, so a double beyond float32's range formats as "+Inf" (and
  // sigs.k8s.io/yaml then writes ".inf"): the infinity test comes after the conversion.
  const float g = static_cast<float>(f);
  if (std::isinf(g)) return g > 0 ? ".inf" : "-.inf";
  char sci[64];
  char* end = std::to_chars(sci, sci + sizeof sci, g, std::chars_format::scientific).ptr;
  const std::string_view s(sci, static_cast<size_t>(end - sci));
  const int exp = std::atoi(sci + s.find('e') + 1);
  // %e when the decimal exponent is < -4 or >= 6 (the precision 'g' uses for the shortest
  // digits); both spell the exponent with a sign and at least two digits ("1e+06").
  if (exp < -4 || exp >= 6) return std::string(s);
  char fixed[64];
  end = std::to_chars(fixed, fixed + sizeof fixed, g, std::chars_format::fixed).ptr;
  return std::string(fixed, end);
}

}  // namespace trainctl::yaml::detail
