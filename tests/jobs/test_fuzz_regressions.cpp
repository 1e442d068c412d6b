// Inputs fuzz_quantity and fuzz_api_decode found to crash trainctl, kept as ordinary tests.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "jobs/gpu.h"
#include "jobs/time.h"

using namespace trainctl;
using nlohmann::json;

TEST_CASE("GPU counts too large to be real count as unparsable (0)", "[jobs][gpu][fuzz]") {
  // Found by fuzz_quantity: casting 1e33 to long long (UBSan float-cast-overflow); the k/M/Ki
  // suffixes could overflow the multiplication too.
  CHECK(jobs::parse_count(json(1e33)) == 0);
  CHECK(jobs::parse_count(json(-1e33)) == 0);
  CHECK(jobs::parse_count(json(18446744073709551615ULL)) == 0);
  CHECK(jobs::parse_count(json(9223372036854775807LL)) == 0);
  CHECK(jobs::parse_count(json("9223372036854775807k")) == 0);
  CHECK(jobs::parse_count(json("99999999999999999999")) == 0);
  // Ordinary counts are unchanged.
  CHECK(jobs::parse_count(json(8)) == 8);
  CHECK(jobs::parse_count(json(2.0)) == 2);
  CHECK(jobs::parse_count(json("4")) == 4);
  CHECK(jobs::parse_count(json("2k")) == 2000);
  CHECK(jobs::parse_count(json("1Ki")) == 1024);
}

TEST_CASE("times a TimePoint cannot hold, or impossible dates, are unreadable", "[jobs][time][fuzz]") {
  // Found by fuzz_quantity: year 2625 overflowed the nanosecond count (UBSan signed overflow).
  CHECK_FALSE(jobs::parse_time("2625-12-31T23:59:59.123456+08:00"));
  CHECK_FALSE(jobs::parse_time("9999-12-31T23:59:59Z"));
  CHECK_FALSE(jobs::parse_time("0001-01-01T00:00:00Z"));
  CHECK_FALSE(jobs::parse_time("2024-02-30T00:00:00Z"));
  CHECK_FALSE(jobs::parse_time("2024-13-01T00:00:00Z"));
  const auto t = jobs::parse_time("2261-12-31T23:59:59Z");
  REQUIRE(t);
  CHECK(jobs::format_rfc3339(*t) == "2261-12-31T23:59:59Z");
  CHECK(jobs::format_rfc3339(*jobs::parse_time("2024-02-29T10:00:00+02:00")) == "2024-02-29T08:00:00Z");
}
