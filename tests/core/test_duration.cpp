#include <catch2/catch.hpp>

#include "core/duration.h"
#include "core/errors.h"

using namespace std::chrono;
using trainctl::parse_duration;
using trainctl::short_human_duration;

TEST_CASE("short_human_duration matches Arena's columns", "[duration]") {
  // Values the seed documents print: 21s, 57s, 4m, 46m, 14h, 17h.
  CHECK(short_human_duration(seconds(21)) == "21s");
  CHECK(short_human_duration(seconds(57)) == "57s");
  CHECK(short_human_duration(seconds(59)) == "59s");
  CHECK(short_human_duration(seconds(60)) == "1m");
  CHECK(short_human_duration(seconds(4 * 60 + 30)) == "4m");
  CHECK(short_human_duration(minutes(46)) == "46m");
  CHECK(short_human_duration(minutes(59) + seconds(59)) == "59m");
  CHECK(short_human_duration(hours(14) + minutes(59)) == "14h");
  CHECK(short_human_duration(hours(23)) == "23h");
  CHECK(short_human_duration(hours(24 * 3 + 5)) == "3d");
  CHECK(short_human_duration(hours(24 * 400)) == "1y");
  CHECK(short_human_duration(seconds(-5)) == "0s");
}

TEST_CASE("parse_duration reads Go-style durations", "[duration]") {
  CHECK(parse_duration("30s") == seconds(30));
  CHECK(parse_duration("5m") == minutes(5));
  CHECK(parse_duration("2h45m") == hours(2) + minutes(45));
  CHECK(parse_duration("1.5h") == minutes(90));
  CHECK(parse_duration("300ms") == milliseconds(300));
  CHECK(parse_duration("0") == seconds(0));
  CHECK_THROWS_AS(parse_duration("10"), trainctl::UsageError);
  CHECK_THROWS_AS(parse_duration("abc"), trainctl::UsageError);
  CHECK_THROWS_AS(parse_duration(""), trainctl::UsageError);
  CHECK_THROWS_AS(parse_duration("5x"), trainctl::UsageError);
}
