// The waits between watch restarts and relists (kube/restart_backoff.h) and the reflectors of
// live views using them: a watch that ends without an event is opened again after a growing,
// jittered wait, not at once. Time is a fake clock moved by the waits, so nothing is slept.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "kube/reflector.h"
#include "kube/restart_backoff.h"

using namespace trainctl;
using namespace std::chrono;
using nlohmann::json;

namespace {

using TimePoint = steady_clock::time_point;

// A client whose lists are empty and whose watches deliver what `script` says for the n-th
// watch (0-based): nothing by default. Every request is counted.
class WatchScript : public kube::Client {
 public:
  std::function<std::vector<std::string>(int)> script = [](int) { return std::vector<std::string>(); };
  int lists = 0;
  int watches = 0;
  std::string unserved;  // a collection path the server answers 404 for, as for a CRD not installed

  kube::Response send(const kube::Request& r) override {
    ++lists;
    if (!unserved.empty() && r.path.rfind(unserved, 0) == 0) throw not_found();
    return {
        200,
        json{{"kind", "PodList"}, {"metadata", {{"resourceVersion", "7"}}}, {"items", json::array()}}.dump(),
        {}};
  }
  std::vector<Result> send_all(const std::vector<kube::Request>& requests) override {
    std::vector<Result> out;
    for (const auto& r : requests) {
      try {
        out.push_back({send(r), nullptr});
      } catch (const ApiError&) {
        out.push_back({{}, std::current_exception()});
      }
    }
    return out;
  }
  void stream(const kube::Request& r, const kube::LineHandler& on_line) override {
    if (!unserved.empty() && r.path.rfind(unserved, 0) == 0) throw not_found();
    if (++watches > 1000) throw Error("a storm of watch requests");
    for (const auto& line : script(watches - 1))
      if (!on_line(line)) return;
  }
  static ApiError not_found() { return ApiError(404, "NotFound", "the server could not find the requested resource"); }
};

std::string event(const std::string& type, const std::string& rv) {
  return json{{"type", type},
              {"object", {{"kind", "Pod"}, {"metadata", {{"name", "p"}, {"resourceVersion", rv}}}}}}
      .dump();
}

struct FakeTime {
  TimePoint now = TimePoint{} + hours(1);
  std::vector<milliseconds> slept;
  kube::ReflectorTiming timing() {
    kube::ReflectorTiming t;
    t.now = [this] { return now; };
    t.sleep = [this](milliseconds d) {
      slept.push_back(d);
      now += d;
    };
    return t;
  }
};

kube::Collection pods_collection(int& puts) {
  kube::Collection c;
  c.path = "/api/v1/pods";
  c.on_put = [&puts](json&) { ++puts; };
  return c;
}

}  // namespace

TEST_CASE("restart backoff: 0.8 s doubling to 30 s, each wait up to twice the step", "[watch][backoff]") {
  TimePoint now{};
  kube::RestartBackoff b(
      {}, [&now] { return now; }, 42);
  milliseconds step(800);
  for (int i = 0; i < 10; ++i) {
    const auto wait = b.next();
    CHECK(wait >= step);
    CHECK(wait <= 2 * step);
    step = std::min(step * 2, milliseconds(30000));
  }
  // After a watch that delivered events the waits start over.
  b.reset();
  CHECK(b.next() <= milliseconds(1600));
}

TEST_CASE("restart backoff starts over two minutes after it last did", "[watch][backoff]") {
  TimePoint now{};
  kube::RestartBackoff b(
      {}, [&now] { return now; }, 7);
  for (int i = 0; i < 6; ++i) b.next();
  CHECK(b.next() >= milliseconds(30000));
  now += minutes(2) + seconds(1);
  CHECK(b.next() <= milliseconds(1600));
}

TEST_CASE("reflector: watches that end without an event are spaced by the backoff, not a storm",
          "[watch][backoff]") {
  WatchScript client;
  FakeTime time;
  int puts = 0;
  kube::Reflectors r(client, {pods_collection(puts)}, seconds(300), time.timing());
  r.start();
  r.run_for(seconds(60));
  // 0.8 + 1.6 + 3.2 + 6.4 + 12.8 + 25.6 s at the least between the first seven.
  CHECK(client.watches >= 3);
  CHECK(client.watches <= 7);
  CHECK(client.lists == 1);
  CHECK(r.stats().waits == static_cast<size_t>(client.watches));
}

TEST_CASE("reflector: a watch that delivered events is opened again at once and resets the backoff",
          "[watch][backoff]") {
  WatchScript client;
  client.script = [](int n) {
    if (n == 4) return std::vector<std::string>{event("MODIFIED", "9")};
    return std::vector<std::string>();
  };
  FakeTime time;
  int puts = 0;
  kube::Reflectors r(client, {pods_collection(puts)}, seconds(300), time.timing());
  r.start();
  r.run_for(seconds(120));
  CHECK(puts == 1);
  // Four empty watches wait longer each time; the fifth brought an event: the sixth opened
  // at once (no wait), and the wait after it is the first step again.
  REQUIRE(time.slept.size() >= 6);
  CHECK(time.slept[3] >= milliseconds(6400));
  CHECK(time.slept[4] <= milliseconds(1600));
}

TEST_CASE("reflector: a 410 Expired lists again after the backoff, not 23 times a second",
          "[watch][backoff]") {
  WatchScript client;
  client.script = [](int) {
    return std::vector<std::string>{json{{"type", "ERROR"},
                                         {"object",
                                          {{"kind", "Status"},
                                           {"status", "Failure"},
                                           {"reason", "Expired"},
                                           {"code", 410},
                                           {"message", "too old resource version: 7 (8)"}}}}
                                        .dump()};
  };
  FakeTime time;
  int puts = 0;
  kube::Reflectors r(client, {pods_collection(puts)}, seconds(300), time.timing());
  r.start();
  r.run_for(seconds(60));
  CHECK(client.lists >= 3);
  CHECK(client.lists <= 8);  // the first list and at most seven after 410s
  CHECK(client.watches == client.lists);
}

TEST_CASE("reflector: a collection the cluster does not serve (404) is not watched; the others are",
          "[watch]") {
  WatchScript client;
  client.unserved = "/apis/kubeflow.org/v1/pytorchjobs";
  client.script = [](int n) {
    if (n == 0) return std::vector<std::string>{event("ADDED", "9")};
    return std::vector<std::string>();
  };
  FakeTime time;
  int puts = 0, unserved_puts = 0;
  kube::Collection missing;
  missing.path = client.unserved;
  missing.on_put = [&unserved_puts](json&) { ++unserved_puts; };
  kube::Reflectors r(client, {missing, pods_collection(puts)}, seconds(300), time.timing());
  r.start();
  CHECK(r.run_for(seconds(5)) == 1);  // the pods' watch went on; the 404 ended nothing
  CHECK(puts == 1);
  CHECK(unserved_puts == 0);
  CHECK(client.lists == 2);
  CHECK(r.stats().watches == static_cast<size_t>(client.watches));
}
