// Streaming (watch, logs -f) of the REST client against a real HTTPS server on 127.0.0.1.
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

TEST_CASE("a stream cut after some lines is a TransportError and is not sent again", "[client][stream]") {
  ServerFixture fx;
  std::atomic<int> attempts{0};
  fx.server.routes().Get("/cut", [&](const httplib::Request&, httplib::Response& res) {
    ++attempts;
    res.set_chunked_content_provider("text/plain", [](size_t offset, httplib::DataSink& sink) {
      if (offset > 0) return false;  // the second call drops the connection without the last chunk
      sink.write("one\ntwo\n", 8);
      return true;
    });
  });
  fx.server.start();
  auto waits = std::make_shared<RecordedWaits>();
  auto client = kube::make_curl_client(fx.config(), fast_options(waits));
  std::vector<std::string> lines;
  kube::Request request;
  request.path = "/cut";
  try {
    client->stream(request, [&](std::string_view line) {
      lines.emplace_back(line);
      return true;
    });
    FAIL("expected a TransportError");
  } catch (const TransportError& e) {
    CHECK(std::string(e.what()).find("closed before the answer was complete") != std::string::npos);
  }
  CHECK(lines == std::vector<std::string>{"one", "two"});  // delivered once, never repeated
  CHECK(attempts == 1);
  CHECK(waits->count() == 0);
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

TEST_CASE("stream_blocks hands over whole lines only, however the chunks cut them", "[client][stream]") {
  ServerFixture fx;
  auto signal = std::make_shared<Signal>();
  fx.server.routes().Get("/log", [signal](const httplib::Request&, httplib::Response& res) {
    res.set_chunked_content_provider("text/plain", [signal](size_t, httplib::DataSink& sink) {
      // Each chunk waits until the client has handed the previous block over, so every
      // chunk reaches the client on its own.
      sink.write("a\nb\nc", 5);  // two whole lines and the start of a third
      if (!signal->wait_for("b")) return false;
      sink.write("c", 1);  // no newline at all: nothing to hand over yet
      sink.write("d\n\ne\n", 5);
      if (!signal->wait_for("e")) return false;
      sink.write("tail", 4);  // the body ends without a newline
      sink.done();
      return true;
    });
  });
  fx.server.start();
  auto waits = std::make_shared<RecordedWaits>();
  auto client = kube::make_curl_client(fx.config(), fast_options(waits));
  std::vector<std::string> blocks;
  kube::Request request;
  request.path = "/log";
  client->stream_blocks(request, [&](std::string_view block) {
    if (block.empty()) return true;  // the stream went quiet for a moment
    blocks.emplace_back(block);
    for (size_t start = 0, nl; (nl = block.find('\n', start)) != std::string_view::npos; start = nl + 1)
      signal->note(std::string(block.substr(start, nl - start)));
    return true;
  });
  REQUIRE_FALSE(blocks.empty());
  std::string joined;
  for (const auto& b : blocks) {
    CHECK(b.back() == '\n');  // never a cut line
    joined += b;
  }
  CHECK(joined == "a\nb\nccd\n\ne\ntail\n");
  CHECK(blocks.front() == "a\nb\n");
  CHECK(blocks.back() == "tail\n");
}

TEST_CASE("stream_blocks stops when the handler returns false", "[client][stream]") {
  ServerFixture fx;
  fx.server.routes().Get("/log", [](const httplib::Request&, httplib::Response& res) {
    res.set_chunked_content_provider("text/plain", [](size_t, httplib::DataSink& sink) {
      for (int i = 0; i < 2000; ++i) {  // far more than the client reads; ends when it hangs up
        const std::string line = "line " + std::to_string(i) + "\n";
        if (!sink.write(line.data(), line.size())) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
      sink.done();
      return true;
    });
  });
  fx.server.start();
  auto waits = std::make_shared<RecordedWaits>();
  auto client = kube::make_curl_client(fx.config(), fast_options(waits));
  int calls = 0;
  kube::Request request;
  request.path = "/log";
  client->stream_blocks(request, [&](std::string_view block) {
    CHECK((block.empty() || block.rfind("line ", 0) == 0));
    return ++calls < 2;
  });
  CHECK(calls == 2);
}
