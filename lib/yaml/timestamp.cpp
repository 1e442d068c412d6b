// go-yaml v2's parseTimestamp (goyaml.v2/resolve.go): Go's time.Parse with the layouts
//   "2006-1-2T15:4:5.999999999Z07:00", "2006-1-2t15:4:5.999999999Z07:00",
//   "2006-1-2 15:4:5.999999999", "2006-1-2"
// and Go's own checks of each field (src/time/format.go Parse: getnum, the ranges, the
// fraction after '.' or ',', "Z" or ±hh:mm with hh <= 24 and mm <= 60, a real day of the
// month, nothing left over).
#include <chrono>

#include "yaml/number.h"

namespace trainctl::yaml::detail {

namespace {

bool is_digit(std::string_view s, size_t i) { return i < s.size() && s[i] >= '0' && s[i] <= '9'; }

// Go's getnum(s, false): one digit, or two when the second is a digit too.
bool number(std::string_view s, size_t& pos, int& out) {
  if (!is_digit(s, pos)) return false;
  out = s[pos++] - '0';
  if (is_digit(s, pos)) out = out * 10 + (s[pos++] - '0');
  return true;
}

bool literal(std::string_view s, size_t& pos, char c) {
  if (pos >= s.size() || s[pos] != c) return false;
  ++pos;
  return true;
}

}  // namespace

bool is_timestamp(std::string_view s) {
  // The quick check of parseTimestamp: four digits, then '-'.
  if (s.size() < 5 || !is_digit(s, 0) || !is_digit(s, 1) || !is_digit(s, 2) || !is_digit(s, 3) || s[4] != '-')
    return false;
  const int year = std::stoi(std::string(s.substr(0, 4)));
  size_t pos = 5;
  int month = 0, day = 0;
  if (!number(s, pos, month) || !literal(s, pos, '-') || !number(s, pos, day)) return false;
  using namespace std::chrono;
  const year_month_day date{std::chrono::year{year}, std::chrono::month{static_cast<unsigned>(month)},
                            std::chrono::day{static_cast<unsigned>(day)}};
  if (!date.ok()) return false;
  if (pos == s.size()) return true;  // "2006-1-2"
  const char sep = s[pos++];
  if (sep != 'T' && sep != 't' && sep != ' ') return false;
  int hour = 0, minute = 0, second = 0;
  if (!number(s, pos, hour) || hour >= 24 || !literal(s, pos, ':') || !number(s, pos, minute) ||
      minute >= 60 || !literal(s, pos, ':') || !number(s, pos, second) || second >= 60)
    return false;
  if (pos + 1 < s.size() && (s[pos] == '.' || s[pos] == ',') && is_digit(s, pos + 1)) {
    for (++pos; is_digit(s, pos);) ++pos;
  }
  if (sep == ' ') return pos == s.size();  // no zone in this layout
  if (pos < s.size() && s[pos] == 'Z') return pos + 1 == s.size();
  if (s.size() - pos != 6 || (s[pos] != '+' && s[pos] != '-') || s[pos + 3] != ':') return false;
  if (!is_digit(s, pos + 1) || !is_digit(s, pos + 2) || !is_digit(s, pos + 4) || !is_digit(s, pos + 5))
    return false;
  const int zone_hours = (s[pos + 1] - '0') * 10 + (s[pos + 2] - '0');
  const int zone_minutes = (s[pos + 4] - '0') * 10 + (s[pos + 5] - '0');
  return zone_hours <= 24 && zone_minutes <= 60;
}

}  // namespace trainctl::yaml::detail
