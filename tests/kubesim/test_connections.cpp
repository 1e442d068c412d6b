// Open watches never hold up other requests: kube-apiserver serves every connection and does
// not count long-running requests against its limits; kubesim gives each connection a thread
// (connection_pool.h). With httplib's fixed pool, the watches beyond its threads and every
// request after them waited.
#include <catch2/catch.hpp>

#include "kubesim/connection_pool.h"
#include "rest_fixture.h"

#include <atomic>
#include <thread>

using namespace kubesim;
using namespace kubesim::testing;

TEST_CASE("watches beyond the idle threads leave room for other requests", "[kubesim][connections]") {
  SimServer sim;  // 16 idle threads
  auto c = sim.client();
  REQUIRE(c->Post("/api/v1/namespaces", R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"w"}})", kJson)
              ->status == 201);
  constexpr int kWatches = 64;
  std::atomic<int> streaming{0};
  std::vector<std::thread> watchers;
  for (int i = 0; i < kWatches; ++i)
    watchers.emplace_back([&] {
      auto w = sim.client();
      w->set_read_timeout(60, 0);
      bool counted = false;
      w->Get("/api/v1/namespaces?watch=true", [&](const char*, size_t) {
        if (!counted) ++streaming;  // the initial ADDED events arrived: this watch is served
        counted = true;
        return true;
      });
    });
  // Every watch is served (a bounded wait: with a fixed pool the count stays at its size).
  for (int i = 0; i < 600 && streaming < kWatches; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK(streaming == kWatches);
  // And a new request is answered while they stream.
  auto g = sim.client();
  auto r = g->Get("/api/v1/namespaces/w");
  CHECK(r);
  CHECK((r && r->status == 200));
  sim.server->stop();  // ends the watches
  for (auto& t : watchers) t.join();
}

TEST_CASE("the connection pool starts a thread when none is idle and keeps at most its idle count",
          "[kubesim][connections]") {
  ConnectionPool pool(2);
  CHECK(pool.threads() == 2);
  std::mutex mu;
  std::condition_variable cv;
  bool release = false;
  std::atomic<int> running{0};
  for (int i = 0; i < 10; ++i)
    pool.enqueue([&] {
      ++running;
      std::unique_lock lock(mu);
      cv.wait(lock, [&] { return release; });
    });
  for (int i = 0; i < 600 && running < 10; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  CHECK(running == 10);  // all ten at once, none queued behind another
  CHECK(pool.busy() == 10);
  {
    std::lock_guard lock(mu);
    release = true;
  }
  cv.notify_all();
  for (int i = 0; i < 600 && pool.busy() > 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  CHECK(pool.busy() == 0);
  pool.enqueue([] {});  // reaps the threads that ended
  for (int i = 0; i < 600 && pool.busy() > 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  CHECK(pool.threads() <= 3);
  pool.shutdown();
}
