#include "core/duration.h"

#include <cmath>
#include <string>

#include "core/errors.h"

namespace trainctl {

std::chrono::nanoseconds parse_duration(std::string_view text) {
  auto fail = [&]() -> UsageError {
    return UsageError("invalid duration \"" + std::string(text) + "\": use a number with a unit, e.g. 30s, 5m, 2h45m");
  };
  std::string_view s = text;
  bool negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s == "0") return std::chrono::nanoseconds(0);
  if (s.empty()) throw fail();
  long double total = 0;
  while (!s.empty()) {
    size_t i = 0;
    while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.')) ++i;
    if (i == 0) throw fail();
    long double value;
    try {
      value = std::stold(std::string(s.substr(0, i)));
    } catch (...) {
      throw fail();
    }
    s.remove_prefix(i);
    size_t j = 0;
    while (j < s.size() && !std::isdigit(static_cast<unsigned char>(s[j])) && s[j] != '.') ++j;
    std::string_view unit = s.substr(0, j);
    s.remove_prefix(j);
    long double scale;
    if (unit == "ns") scale = 1;
    else if (unit == "us" || unit == "µs") scale = 1e3;
    else if (unit == "ms") scale = 1e6;
    else if (unit == "s") scale = 1e9;
    else if (unit == "m") scale = 60e9;
    else if (unit == "h") scale = 3600e9;
    else throw fail();
    total += value * scale;
  }
  if (total > 9.2e18) throw fail();
  auto ns = std::chrono::nanoseconds(static_cast<long long>(std::llround(total)));
  return negative ? -ns : ns;
}

std::string short_human_duration(std::chrono::seconds d) {
  long long s = d.count();
  if (s < 0) return "0s";
  if (s < 60) return std::to_string(s) + "s";
  long long m = s / 60;
  if (m < 60) return std::to_string(m) + "m";
  long long h = m / 60;
  if (h < 24) return std::to_string(h) + "h";
  if (h < 24 * 365) return std::to_string(h / 24) + "d";
  return std::to_string(h / 24 / 365) + "y";
}

}  // namespace trainctl
