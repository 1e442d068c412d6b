// Inputs the libFuzzer targets (fuzz/quantity.cpp, fuzz/watch_events.cpp) found to crash
// trainctl, kept as ordinary tests. Each must now end in a value or in trainctl's own errors.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/errors.h"
#include "jobs/kind.h"
#include "scripted_client.h"
#include "submit/parse.h"
#include "submit/wait.h"

using namespace trainctl;

TEST_CASE("a number of seconds beyond int64 is a usage error naming the flag", "[submit][fuzz]") {
  // Found by fuzz_quantity: std::stoll threw std::out_of_range out of parse_seconds.
  CHECK_THROWS_AS(submit::parse_seconds("--active-deadline", "9223372306854775805"), UsageError);
  CHECK_THROWS_WITH(submit::parse_seconds("--active-deadline", "9223372306854775805"),
                    Catch::Matchers::Contains("--active-deadline"));
  CHECK(submit::parse_seconds("--active-deadline", "9223372036854775807") == 9223372036854775807LL);
}

namespace {

using nlohmann::json;
using trainctl::testing::ScriptedClient;

json running_pod() {
  return {{"metadata", {{"name", "demo-master-0"}, {"resourceVersion", "5"}}}, {"status", {{"phase", "Running"}}}};
}

// --wait on the pods of a PyTorchJob: an empty list, then one watch stream with `lines`.
jobs::JobStatus wait_with_events(std::vector<std::string> lines) {
  ScriptedClient client(
      [](const kube::Request&, int) {
        return ScriptedClient::ok({{"kind", "List"}, {"metadata", {{"resourceVersion", "10"}}}, {"items", json::array()}},
                                  200);
      },
      [lines](const kube::Request&, int index) {
        if (index > 0) throw TransportError("no more streams");
        return lines;
      });
  submit::WaitOptions o;
  o.sleep = [](std::chrono::milliseconds) {};  // no backoff slept
  o.expected_pods = 1;
  return submit::wait_for_job(client, jobs::kind_named("pytorchjob"), "ns1", "demo", o);
}

}  // namespace

TEST_CASE("--wait reads past a watched pod without metadata", "[submit][wait][fuzz]") {
  // Found by fuzz_watch_events: a watch line without an "object" reached watch_pods as {}, and
  // pod["metadata"] on a const object without the key failed nlohmann's assertion (undefined
  // behaviour in a release build).
  CHECK(wait_with_events({watch_event("ADDED", json::object()), watch_event("MODIFIED", running_pod())}) ==
        jobs::JobStatus::Running);
}

TEST_CASE("--wait ends in trainctl's Error on watch events of an unexpected shape", "[submit][wait][fuzz]") {
  // Seen while fixing the case above: nlohmann's type_error escaped wait_for_job, and the event
  // line's own decoding threw through the client's stream callback.
  const std::vector<std::vector<std::string>> streams = {
      {watch_event("ADDED", {{"metadata", "demo"}})},
      {"[1, 2]"},
      {watch_event("MODIFIED", {{"metadata", {{"resourceVersion", 12}}}})},
  };
  for (const auto& lines : streams) {
    CAPTURE(lines);
    CHECK_THROWS_AS(wait_with_events(lines), Error);
    CHECK_THROWS_WITH(wait_with_events(lines), Catch::Matchers::Contains("unexpected shape"));
  }
}
