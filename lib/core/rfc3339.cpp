#include "core/rfc3339.h"

#include <cstdio>

namespace trainctl {

namespace {

using namespace std::chrono;

// The n digits at pos as a number, or -1 when one of them is not a digit.
int number_at(std::string_view s, size_t pos, size_t n) {
  int out = 0;
  for (size_t i = pos; i < pos + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return -1;
    out = out * 10 + (s[i] - '0');
  }
  return out;
}

std::string format(system_clock::time_point t, const char* fraction) {
  const auto secs = floor<seconds>(t);
  const auto days = floor<std::chrono::days>(secs);
  const year_month_day date{days};
  const hh_mm_ss time{secs - days};
  char buf[40];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02uT%02d:%02d:%02d%sZ", static_cast<int>(date.year()),
                static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()),
                static_cast<int>(time.hours().count()), static_cast<int>(time.minutes().count()),
                static_cast<int>(time.seconds().count()), fraction);
  return buf;
}

}  // namespace

std::optional<system_clock::time_point> parse_rfc3339(std::string_view s) {
  if (s.size() < 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':')
    return std::nullopt;
  const int y = number_at(s, 0, 4), mo = number_at(s, 5, 2), d = number_at(s, 8, 2);
  const int h = number_at(s, 11, 2), mi = number_at(s, 14, 2), sec = number_at(s, 17, 2);
  if (y < 0 || mo < 0 || d < 0 || h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 59)
    return std::nullopt;
  const year_month_day date{year{y}, month{static_cast<unsigned>(mo)}, day{static_cast<unsigned>(d)}};
  if (!date.ok() || y < 1678 || y > 2261) return std::nullopt;
  size_t pos = 19;
  long long nanos = 0;
  if (pos + 1 < s.size() && s[pos] == '.' && s[pos + 1] >= '0' && s[pos + 1] <= '9') {
    int count = 0;
    for (++pos; pos < s.size() && s[pos] >= '0' && s[pos] <= '9'; ++pos) {
      if (count < 9) nanos = nanos * 10 + (s[pos] - '0'), ++count;
    }
    for (; count < 9; ++count) nanos *= 10;
  }
  const std::string_view zone = s.substr(pos);
  int offset = 0;
  if (zone != "Z") {
    if (zone.size() != 6 || (zone[0] != '+' && zone[0] != '-') || zone[3] != ':') return std::nullopt;
    const int oh = number_at(zone, 1, 2), om = number_at(zone, 4, 2);
    if (oh < 0 || oh > 23 || om < 0 || om > 59) return std::nullopt;
    offset = (oh * 60 + om) * 60 * (zone[0] == '-' ? -1 : 1);
  }
  const auto t =
      sys_days(date) + hours(h) + minutes(mi) + seconds(sec) - seconds(offset) + nanoseconds(nanos);
  return time_point_cast<system_clock::duration>(t);
}

std::string format_rfc3339(system_clock::time_point t) { return format(t, ""); }

std::string format_rfc3339_nano(system_clock::time_point t) {
  const auto ns = duration_cast<nanoseconds>(t - floor<seconds>(t)).count();
  char fraction[16];
  std::snprintf(fraction, sizeof fraction, ".%09lld", static_cast<long long>(ns));
  return format(t, fraction);
}

}  // namespace trainctl
