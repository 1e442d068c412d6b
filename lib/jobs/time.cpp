#include "jobs/time.h"

#include <cstdio>
#include <ctime>

namespace trainctl::jobs {

namespace {
bool digits(std::string_view s, size_t pos, size_t n, int& out) {
  if (pos + n > s.size()) return false;
  out = 0;
  for (size_t i = pos; i < pos + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    out = out * 10 + (s[i] - '0');
  }
  return true;
}
}  // namespace

std::optional<TimePoint> parse_time(std::string_view s) {
  int y, mo, d, h, mi, sec;
  if (s.size() < 20 || !digits(s, 0, 4, y) || s[4] != '-' || !digits(s, 5, 2, mo) || s[7] != '-' ||
      !digits(s, 8, 2, d) || (s[10] != 'T' && s[10] != 't' && s[10] != ' ') || !digits(s, 11, 2, h) ||
      s[13] != ':' || !digits(s, 14, 2, mi) || s[16] != ':' || !digits(s, 17, 2, sec))
    return std::nullopt;
  size_t pos = 19;
  long long nanos = 0;
  if (pos < s.size() && s[pos] == '.') {
    ++pos;
    int count = 0;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
      if (count < 9) {
        nanos = nanos * 10 + (s[pos] - '0');
        ++count;
      }
      ++pos;
    }
    if (count == 0) return std::nullopt;
    for (; count < 9; ++count) nanos *= 10;
  }
  int offset = 0;
  if (pos < s.size() && (s[pos] == 'Z' || s[pos] == 'z')) {
    ++pos;
  } else if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
    int oh, om;
    if (!digits(s, pos + 1, 2, oh) || pos + 3 >= s.size() || s[pos + 3] != ':' || !digits(s, pos + 4, 2, om))
      return std::nullopt;
    offset = (oh * 60 + om) * 60 * (s[pos] == '-' ? -1 : 1);
    pos += 6;
  } else {
    return std::nullopt;
  }
  if (pos != s.size()) return std::nullopt;
  using namespace std::chrono;
  // A TimePoint counts nanoseconds in 64 bits: years outside 1678..2261 do not fit.
  const year_month_day date{year{y}, month{static_cast<unsigned>(mo)}, day{static_cast<unsigned>(d)}};
  if (y < 1678 || y > 2261 || !date.ok()) return std::nullopt;
  const auto days = sys_days(date);
  auto tp = time_point_cast<nanoseconds>(days) + hours(h) + minutes(mi) + seconds(sec) - seconds(offset) +
            nanoseconds(nanos);
  return time_point_cast<system_clock::duration>(tp);
}

std::string format_local(TimePoint t) {
  std::time_t tt = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  localtime_r(&tt, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
  return buf;
}

std::string format_rfc3339(TimePoint t) {
  std::time_t tt = std::chrono::system_clock::to_time_t(std::chrono::floor<std::chrono::seconds>(t));
  std::tm tm{};
  gmtime_r(&tt, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::chrono::seconds seconds_between(TimePoint from, TimePoint to) {
  return std::chrono::floor<std::chrono::seconds>(to - from);
}

}  // namespace trainctl::jobs
