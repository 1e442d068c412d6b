// Streaming, paging, parallel requests and connection reuse of the REST client against a
// real HTTPS server on 127.0.0.1.
#include <catch2/catch.hpp>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <set>

#include "core/errors.h"
#include "kube/curl_client.h"
#include "test_client_fixture.h"

using namespace trainctl;
using namespace trainctl::testing;

namespace {

// A one-way signal between the test's line handler and the server's content provider.
struct Signal {
  std::mutex mutex;
  std::condition_variable cv;
  std::set<std::string> seen;
  void note(const std::string& line) {
    std::lock_guard lock(mutex);
    seen.insert(line);
    cv.notify_all();
  }
  // Waits (bounded) until the client has seen `line`; false on time-out.
  bool wait_for(const std::string& line) {
    std::unique_lock lock(mutex);
    return cv.wait_for(lock, std::chrono::seconds(5), [&] { return seen.count(line) > 0; });
  }
};

}  // namespace

TEST_CASE("stream delivers lines as they arrive", "[client][stream]") {
  ServerFixture fx;
  auto signal = std::make_shared<Signal>();
  std::atomic<bool> delivered_before_next{true};
  fx.server.routes().Get("/api/v1/namespaces/default/pods/p/log", [&, signal](const httplib::Request& req,
                                                                              httplib::Response& res) {
    CHECK(req.get_param_value("follow") == "true");
    res.set_chunked_content_provider("text/plain", [&, signal](size_t, httplib::DataSink& sink) {
      // Each next chunk is written only once the client has handed the previous line to
      // the handler, so a client that waited for the end of the body would stall here.
      sink.write("epoch 1\n", 8);
      if (!signal->wait_for("epoch 1")) delivered_before_next = false;
      sink.write("epoch 2\nepo", 11);  // a line split across chunks
      if (!signal->wait_for("epoch 2")) delivered_before_next = false;
      sink.write("ch 3\nlast line without newline", 30);
      sink.done();
      return true;
    });
  });
  fx.server.start();
  auto waits = std::make_shared<RecordedWaits>();
  auto client = kube::make_curl_client(fx.config(), fast_options(waits));
  std::vector<std::string> lines;
  kube::Request request;
  request.path = "/api/v1/namespaces/default/pods/p/log?follow=true";
  request.accept = "*/*";
  client->stream(request, [&](std::string_view line) {
    lines.emplace_back(line);
    signal->note(std::string(line));
    return true;
  });
  CHECK(delivered_before_next);
  CHECK(lines == std::vector<std::string>{"epoch 1", "epoch 2", "epoch 3", "last line without newline"});
}

TEST_CASE("stream stops when the handler returns false", "[client][stream]") {
  ServerFixture fx;
  fx.server.routes().Get("/watch", [](const httplib::Request&, httplib::Response& res) {
    res.set_chunked_content_provider("application/json", [](size_t, httplib::DataSink& sink) {
      for (int i = 0; i < 2000; ++i) {  // far more than the client reads; ends when it hangs up
        const std::string event = R"({"type":"ADDED","object":{"n":)" + std::to_string(i) + "}}\n";
        if (!sink.write(event.data(), event.size())) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
      sink.done();
      return true;
    });
  });
  fx.server.start();
  auto waits = std::make_shared<RecordedWaits>();
  auto client = kube::make_curl_client(fx.config(), fast_options(waits));
  std::vector<int> seen;
  kube::Request request;
  request.path = "/watch";
  client->stream(request, [&](std::string_view line) {
    seen.push_back(nlohmann::json::parse(line)["object"]["n"].get<int>());
    return seen.size() < 3;
  });
  CHECK(seen == std::vector<int>{0, 1, 2});
}

TEST_CASE("stream throws ApiError before any line on a non-2xx answer", "[client][stream]") {
  ServerFixture fx;
  fx.server.routes().Get("/forbidden", [](const httplib::Request&, httplib::Response& res) {
    res.status = 403;
    res.set_content(R"({"kind":"Status","apiVersion":"v1","status":"Failure","message":"pods \"p\" is )"
                    R"(forbidden: User \"bob\" cannot get resource \"pods/log\"","reason":"Forbidden","code":403})"
                    "\n{\"second\":1}\n",
                    "application/json");
  });
  fx.server.start();
  auto waits = std::make_shared<RecordedWaits>();
  auto client = kube::make_curl_client(fx.config(), fast_options(waits));
  int lines = 0;
  kube::Request request;
  request.path = "/forbidden";
  try {
    client->stream(request, [&](std::string_view) {
      ++lines;
      return true;
    });
    FAIL("expected an ApiError");
  } catch (const ApiError& e) {
    CHECK(e.http_status() == 403);
    CHECK(e.code() == ExitCode::Auth);
  }
  CHECK(lines == 0);
}

TEST_CASE("list_paged follows continue tokens over three pages", "[client][paging]") {
  ServerFixture fx;
  std::vector<std::string> queries;
  std::mutex mutex;
  fx.server.routes().Get("/api/v1/pods", [&](const httplib::Request& req, httplib::Response& res) {
    {
      std::lock_guard lock(mutex);
      queries.push_back(req.get_param_value("labelSelector") + "|" + req.get_param_value("limit") + "|" +
                        req.get_param_value("continue"));
    }
    const std::string cont = req.get_param_value("continue");
    nlohmann::json page{{"kind", "PodList"}, {"apiVersion", "v1"}};
    if (cont.empty()) {
      page["items"] = {{{"metadata", {{"name", "a"}}}}, {{"metadata", {{"name", "b"}}}}};
      page["metadata"] = {{"continue", "tok/1+="}, {"resourceVersion", "40"}};
    } else if (cont == "tok/1+=") {
      page["items"] = {{{"metadata", {{"name", "c"}}}}, {{"metadata", {{"name", "d"}}}}};
      page["metadata"] = {{"continue", "tok2"}, {"resourceVersion", "41"}};
    } else if (cont == "tok2") {
      page["items"] = {{{"metadata", {{"name", "e"}}}}};
      page["metadata"] = {{"resourceVersion", "42"}};
    } else {
      res.status = 410;
    }
    res.set_content(page.dump(), "application/json");
  });
  fx.server.start();
  auto waits = std::make_shared<RecordedWaits>();
  auto client = kube::make_curl_client(fx.config(), fast_options(waits));
  std::vector<std::string> names;
  const std::string rv = client->list_paged(
      "/api/v1/pods?labelSelector=" + kube::url_encode("app=train"),
      [&](nlohmann::json&& item) { names.push_back(item["metadata"]["name"]); }, 2);
  CHECK(names == std::vector<std::string>{"a", "b", "c", "d", "e"});
  CHECK(rv == "42");
  CHECK(queries == std::vector<std::string>{"app=train|2|", "app=train|2|tok/1+=", "app=train|2|tok2"});
}

TEST_CASE("send_all returns results in request order, errors in their slots", "[client][parallel]") {
  ServerFixture fx;
  std::atomic<int> in_flight{0};
  std::atomic<int> max_in_flight{0};
  fx.server.routes().Get(R"(/items/(\d+))", [&](const httplib::Request& req, httplib::Response& res) {
    const int n = std::stoi(req.matches[1]);
    const int now = ++in_flight;
    for (int seen = max_in_flight; now > seen && !max_in_flight.compare_exchange_weak(seen, now);) {
    }
    // Earlier items answer later, so completion order is the reverse of request order.
    std::this_thread::sleep_for(std::chrono::milliseconds(20 * (5 - n)));
    --in_flight;
    if (n == 3) {
      res.status = 404;
      res.set_content(R"({"kind":"Status","status":"Failure","message":"item 3 not found","reason":"NotFound",)"
                      R"("code":404})",
                      "application/json");
      return;
    }
    res.set_content(nlohmann::json{{"n", n}}.dump(), "application/json");
  });
  fx.server.start();
  auto waits = std::make_shared<RecordedWaits>();
  auto client = kube::make_curl_client(fx.config(), fast_options(waits));
  std::vector<kube::Request> requests(5);
  for (int i = 0; i < 5; ++i) requests[i].path = "/items/" + std::to_string(i);
  const auto results = client->send_all(requests);
  REQUIRE(results.size() == 5);
  for (int i = 0; i < 5; ++i) {
    INFO("item " << i);
    if (i == 3) {
      REQUIRE(results[i].error);
      CHECK_THROWS_WITH(std::rethrow_exception(results[i].error), "item 3 not found");
    } else {
      CHECK_FALSE(results[i].error);
      CHECK(nlohmann::json::parse(results[i].response.body)["n"] == i);
    }
  }
  CHECK(max_in_flight > 1);  // they ran at the same time
}

TEST_CASE("send_all retries the requests that got a 503 and keeps the others", "[client][parallel]") {
  ServerFixture fx;
  std::atomic<int> flaky_attempts{0};
  std::atomic<int> steady_attempts{0};
  fx.server.routes().Get("/flaky", [&](const httplib::Request&, httplib::Response& res) {
    if (++flaky_attempts == 1) {
      res.status = 503;
      res.set_content(R"({"kind":"Status","status":"Failure","message":"busy","reason":"ServiceUnavailable",)"
                      R"("code":503})",
                      "application/json");
      return;
    }
    res.set_content(R"({"which":"flaky"})", "application/json");
  });
  fx.server.routes().Get("/steady", [&](const httplib::Request&, httplib::Response& res) {
    ++steady_attempts;
    res.set_content(R"({"which":"steady"})", "application/json");
  });
  fx.server.start();
  auto waits = std::make_shared<RecordedWaits>();
  auto client = kube::make_curl_client(fx.config(), fast_options(waits));
  std::vector<kube::Request> requests(2);
  requests[0].path = "/flaky";
  requests[1].path = "/steady";
  const auto results = client->send_all(requests);
  REQUIRE(results.size() == 2);
  REQUIRE_FALSE(results[0].error);
  REQUIRE_FALSE(results[1].error);
  CHECK(nlohmann::json::parse(results[0].response.body)["which"] == "flaky");
  CHECK(nlohmann::json::parse(results[1].response.body)["which"] == "steady");
  CHECK(flaky_attempts == 2);
  CHECK(steady_attempts == 1);
  CHECK(waits->count() == 1);
}

TEST_CASE("consecutive requests reuse one connection", "[client][connection]") {
  ServerFixture fx;
  std::vector<int> ports;
  std::mutex mutex;
  fx.server.routes().Get("/ping", [&](const httplib::Request& req, httplib::Response& res) {
    std::lock_guard lock(mutex);
    ports.push_back(req.remote_port);
    res.set_content("{}", "application/json");
  });
  fx.server.start();
  auto waits = std::make_shared<RecordedWaits>();
  auto client = kube::make_curl_client(fx.config(), fast_options(waits));
  for (int i = 0; i < 4; ++i) client->get_json("/ping");
  REQUIRE(ports.size() == 4);
  CHECK(std::set<int>(ports.begin(), ports.end()).size() == 1);
}
