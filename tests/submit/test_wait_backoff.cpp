// --wait and `trainctl wait` against watches that end without an event (a proxy closing idle
// streams): each is opened again after the backoff of kube/restart_backoff.h, so the wait
// costs a few requests a minute, not thousands a second. The waits are recorded and move a
// fake clock; nothing is slept.
#include <catch2/catch.hpp>

#include "core/errors.h"
#include "scripted_client.h"
#include "submit/wait.h"

using namespace trainctl;
using namespace trainctl::testing;
using nlohmann::json;

namespace {

json empty_list() {
  return {{"kind", "List"}, {"metadata", {{"resourceVersion", "10"}}}, {"items", json::array()}};
}

}  // namespace

TEST_CASE("--wait: watches that end without an event wait the backoff; the timeout still ends it", "[wait]") {
  auto now = std::chrono::system_clock::time_point{} + std::chrono::hours(1000);
  int watches = 0;
  ScriptedClient client([](const kube::Request&, int) { return ScriptedClient::ok(empty_list(), 200); },
                        [&](const kube::Request&, int) -> std::vector<std::string> {
                          if (++watches > 1000) throw Error("a storm of watch requests");
                          return {};  // ends at once, no event
                        });
  std::vector<std::chrono::milliseconds> waits;
  submit::WaitOptions o;
  o.until_finished = true;
  o.timeout = std::chrono::seconds(60);
  o.clock = [&] { return now; };
  o.sleep = [&](std::chrono::milliseconds d) {
    waits.push_back(d);
    now += d;
  };
  try {
    submit::wait_for_job(client, jobs::kind_named("pytorchjob"), "ns1", "demo", o);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.code() == ExitCode::Timeout);
  }
  // 0.8 + 1.6 + 3.2 + 6.4 + 12.8 + 25.6 s at the least before the seventh.
  CHECK(watches >= 3);
  CHECK(watches <= 7);
  REQUIRE(waits.size() >= 2);
  CHECK(waits[0] >= std::chrono::milliseconds(800));
  CHECK(waits[1] >= std::chrono::milliseconds(1600));
  // The last wait ends at the timeout, not past it.
  CHECK(now <= std::chrono::system_clock::time_point{} + std::chrono::hours(1000) + std::chrono::seconds(60));
}

TEST_CASE("--wait: a watch that brought events is opened again at once", "[wait]") {
  auto now = std::chrono::system_clock::time_point{} + std::chrono::hours(1000);
  int watches = 0;
  auto job = [](const std::string& condition, const std::string& rv) {
    return json{{"metadata", {{"name", "demo"}, {"resourceVersion", rv}}},
                {"status", {{"conditions", {{{"type", condition}, {"status", "True"}}}}}}};
  };
  ScriptedClient client(
      [&](const kube::Request&, int) {
        return ScriptedClient::ok(json{{"kind", "List"},
                                       {"metadata", {{"resourceVersion", "10"}}},
                                       {"items", json::array({job("Created", "9")})}},
                                  200);
      },
      [&](const kube::Request&, int) -> std::vector<std::string> {
        ++watches;
        if (watches < 3) return {watch_event("MODIFIED", job("Running", std::to_string(10 + watches)))};
        return {watch_event("MODIFIED", job("Succeeded", "20"))};
      });
  std::vector<std::chrono::milliseconds> waits;
  submit::WaitOptions o;
  o.until_finished = true;
  o.clock = [&] { return now; };
  o.sleep = [&](std::chrono::milliseconds d) { waits.push_back(d); };
  CHECK(submit::wait_for_job(client, jobs::kind_named("pytorchjob"), "ns1", "demo", o) ==
        jobs::JobStatus::Succeeded);
  CHECK(watches == 3);
  CHECK(waits.empty());
}
