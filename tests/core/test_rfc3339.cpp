// RFC 3339 as metav1.Time reads and writes it: Go's time.Parse(time.RFC3339, s)
// (time/format_rfc3339.go parseRFC3339) and Format(time.RFC3339) in UTC.
#include <catch2/catch.hpp>

#include "core/rfc3339.h"

using namespace std::chrono;
using trainctl::format_rfc3339;
using trainctl::format_rfc3339_nano;
using trainctl::parse_rfc3339;

TEST_CASE("RFC 3339 parses as Go's time.RFC3339 layout accepts it", "[core][time]") {
  const auto base = sys_days(2024y / May / 1) + 10h;
  CHECK(parse_rfc3339("2024-05-01T10:00:00Z") == base);
  CHECK(parse_rfc3339("2024-05-01T18:00:00+08:00") == base);
  CHECK(parse_rfc3339("2024-05-01T09:30:00-00:30") == base);
  CHECK(parse_rfc3339("2024-05-01T10:00:00.5Z") == base + 500ms);
  CHECK(parse_rfc3339("2024-05-01T10:00:00.123456789Z") == base + 123456789ns);
  CHECK(parse_rfc3339("2024-05-01T10:00:00.1234567891Z") == base + 123456789ns);  // past ns: dropped
  CHECK(parse_rfc3339("2024-02-29T00:00:00Z") == sys_days(2024y / February / 29));
  // Go refuses each of these (parseRFC3339 and the layout parser alike).
  for (const char* bad :
       {"", "yesterday", "2024-05-01", "2024-05-01T10:00:00", "2024-05-01t10:00:00Z", "2024-05-01 10:00:00Z",
        "2024-05-01T10:00:00z", "2024-05-01T24:00:00Z", "2024-05-01T10:60:00Z", "2024-05-01T10:00:60Z",
        "2024-02-30T00:00:00Z", "2023-02-29T00:00:00Z", "2024-13-01T00:00:00Z", "2024-5-01T10:00:00Z",
        "2024-05-01T10:00:00.Z", "2024-05-01T10:00:00+0800", "2024-05-01T10:00:00+24:00",
        "2024-05-01T10:00:00Z ", "+2024-05-01T10:00:00Z"}) {
    INFO(bad);
    CHECK_FALSE(parse_rfc3339(bad));
  }
  // A system_clock time point holds 1678..2261 only.
  CHECK_FALSE(parse_rfc3339("1677-01-01T00:00:00Z"));
  CHECK_FALSE(parse_rfc3339("9999-12-31T23:59:59Z"));
  CHECK(parse_rfc3339("2261-12-31T23:59:59Z"));
}

TEST_CASE("RFC 3339 formats in UTC: whole seconds, or nine fraction digits", "[core][time]") {
  const auto t = sys_days(2026y / January / 2) + 3h + 4min + 5s + 120ms;
  CHECK(format_rfc3339(t) == "2026-01-02T03:04:05Z");  // the fraction is dropped, not rounded
  CHECK(format_rfc3339_nano(t) == "2026-01-02T03:04:05.120000000Z");
  CHECK(format_rfc3339(sys_days(1970y / January / 1) - 1s) == "1969-12-31T23:59:59Z");
  CHECK(format_rfc3339(*parse_rfc3339("2024-02-29T10:00:00+02:00")) == "2024-02-29T08:00:00Z");
}
