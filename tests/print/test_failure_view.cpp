// The root cause block of get/wait and its JSON object (docs/json-output.md "failure").
#include <catch2/catch.hpp>

#include "print/failure_view.h"

using trainctl::jobs::Failure;
using trainctl::print::failure_json;
using trainctl::print::failure_text;

TEST_CASE("failure_text: replica, exit code, reason, restarts, time, message and the log tail") {
  Failure f;
  f.replica = "worker-1";
  f.pod = "train-worker-1";
  f.container = "pytorch";
  f.exit_code = 137;
  f.reason = "OOMKilled";
  f.restarts = 2;
  f.finished_at = "2024-05-01T10:03:00Z";
  f.message = "Job train has failed because it has reached the specified backoff limit";
  f.log_tail = {"step=41 loss=0.2", "step=42 loss=0.1\x1b[31m"};
  CHECK(failure_text(f) ==
        "Failed: worker-1 exited 137 (OOMKilled) after 2 restarts at 2024-05-01T10:03:00Z\n"
        "  Job train has failed because it has reached the specified backoff limit\n"
        "  Last 2 lines of train-worker-1/pytorch:\n"
        "    step=41 loss=0.2\n"
        "    step=42 loss=0.1\\x1b[31m\n");
  const auto j = failure_json(f);
  CHECK(j.dump() ==
        R"({"replica":"worker-1","pod":"train-worker-1","container":"pytorch","exitCode":137,"reason":"OOMKilled",)"
        R"("message":"Job train has failed because it has reached the specified backoff limit","restarts":2,)"
        R"("finishedAt":"2024-05-01T10:03:00Z","logTail":["step=41 loss=0.2","step=42 loss=0.1\\x1b[31m"]})");
}

TEST_CASE("failure_text: a failure only the job's condition tells") {
  Failure f;
  f.reason = "DeadlineExceeded";
  f.message = "Job d has failed because it was active longer than specified deadline";
  f.finished_at = "2024-05-01T10:05:00Z";
  CHECK(failure_text(f) ==
        "Failed: DeadlineExceeded at 2024-05-01T10:05:00Z\n"
        "  Job d has failed because it was active longer than specified deadline\n");
  const auto j = failure_json(f);
  CHECK(j["pod"].is_null());
  CHECK(j["exitCode"].is_null());
  CHECK(j["restarts"] == 0);
}
