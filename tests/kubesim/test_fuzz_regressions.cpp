// Inputs fuzz_quantity and fuzz_selector found to crash kubesim, kept as ordinary tests.
#include <catch2/catch.hpp>

#include "kubesim/controllers/context.h"

TEST_CASE("kubesim reads a time a TimePoint cannot hold as unset", "[kubesim][fuzz]") {
  // Found by fuzz_quantity: year 4050 overflowed system_clock's nanoseconds (UBSan).
  CHECK(kubesim::parse_time("4050-12-31T23:59:59Z") == kubesim::TimePoint{});
  CHECK(kubesim::parse_time("-2147483648-01-01T00:00:00Z") == kubesim::TimePoint{});
  CHECK(kubesim::parse_time("2026-01-999999T00:00:00Z") == kubesim::TimePoint{});
  CHECK(kubesim::format_rfc3339(kubesim::parse_time("2026-01-02T03:04:05Z")) == "2026-01-02T03:04:05Z");
}
