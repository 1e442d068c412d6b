// logs --all: merging replicas' lines, prefixes, partial lines and resumed streams.
#include <catch2/catch.hpp>
#include <sstream>

#include "jobs/logs/log_merge.h"

using namespace trainctl::jobs;

TEST_CASE("log_prefix pads labels to the widest and colours only when asked") {
  CHECK(log_prefix("worker-1", 8, false, 0) == "[worker-1] ");
  CHECK(log_prefix("ps-0", 8, false, 0) == "[ps-0]     ");
  CHECK(log_prefix("master-0", 4, false, 0) == "[master-0] ");
  const std::string c = log_prefix("ps-0", 4, true, 1);
  CHECK(c == "\033[33m[ps-0]\033[0m ");
  CHECK(log_prefix("ps-0", 4, true, 7) == c);  // six colours, then again
}

TEST_CASE("lines of several replicas are written whole, each with its prefix, in order") {
  std::ostringstream out;
  MergedOutput merged(out);
  ReplicaLines a(merged, "[a] ", false), b(merged, "[b] ", false);
  a.feed("2024-05-01T10:00:00.000000001Z a1\n2024-05-01T10:00:01.000000000Z a");
  b.feed("2024-05-01T10:00:00.5Z b1\n");
  a.feed("2\n");  // the end of a line cut by the chunk boundary
  b.feed("2024-05-01T10:00:02Z b2");
  CHECK(out.str().empty());  // held until flushed
  merged.flush();
  CHECK(out.str() == "[a] a1\n[b] b1\n[a] a2\n");
  b.end();  // the body ended without a newline
  merged.flush();
  CHECK(out.str() == "[a] a1\n[b] b1\n[a] a2\n[b] b2\n");
}

TEST_CASE("a resumed stream repeats nothing and loses nothing") {
  std::ostringstream out;
  MergedOutput merged(out);
  ReplicaLines r(merged, "", false);
  r.feed("2024-05-01T10:00:00Z x step=1\n2024-05-01T10:00:01.2Z x step=2\n2024-05-01T10:00:01.2Z x step=3\n");
  r.feed("2024-05-01T10:00:01.2Z x step=");
  r.cut();  // the connection broke inside a line: it comes again whole
  REQUIRE(r.last());
  // The next stream starts at the last line's second (sinceTime is in seconds).
  r.resume();
  r.feed("2024-05-01T10:00:01.1Z x old\n");  // before the last line written: dropped
  r.feed("2024-05-01T10:00:01.2Z x step=2\n2024-05-01T10:00:01.2Z x step=3\n");  // written already
  r.feed("2024-05-01T10:00:01.2Z x step=4\n2024-05-01T10:00:03Z x step=5\n");
  merged.flush();
  CHECK(out.str() == "x step=1\nx step=2\nx step=3\nx step=4\nx step=5\n");
}

TEST_CASE("timestamps stay when asked for, and lines without one pass as they are") {
  std::ostringstream out;
  MergedOutput merged(out);
  ReplicaLines r(merged, "[w] ", true);
  r.feed("2024-05-01T10:00:00.000000000Z hello\nno time here\n\n");
  merged.flush();
  CHECK(out.str() == "[w] 2024-05-01T10:00:00.000000000Z hello\n[w] no time here\n[w] \n");
}

TEST_CASE("a prefix of none leaves the lines as the log has them") {
  std::ostringstream out;
  MergedOutput merged(out);
  ReplicaLines r(merged, "", false);
  r.feed("2024-05-01T10:00:00Z one\n2024-05-01T10:00:00Z two\n");
  merged.flush();
  CHECK(out.str() == "one\ntwo\n");
}
