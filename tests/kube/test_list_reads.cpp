// Paged reads of kube/list_reads.h: pages parsed item by item, lists continued together
// round by round, 404 lists skipped, and a continue token that outlived the server's
// compaction (410 Expired on a later page) restarting every read from its first page once, as
// client-go's pager does (tools/pager/pager.go); a second expiry is one line. Against a
// FakeClient and against a real HTTPS server answering as kube-apiserver
// (k8s.io/apiserver pkg/storage/etcd3/errors.go).
#include <catch2/catch.hpp>
#include <condition_variable>
#include <mutex>
#include <set>
#include <unistd.h>

#include "core/errors.h"
#include "core/log.h"
#include "kube/curl_client.h"
#include "kube/list_reads.h"
#include "support/fake_client.h"
#include "test_client_fixture.h"

using nlohmann::json;
using trainctl::testing::FakeClient;
using namespace trainctl;
using namespace trainctl::kube;
using namespace trainctl::testing;

namespace {

kube::ListQuery selector(const std::string& s) { return kube::ListQuery{.label_selector = s}; }

json item(const std::string& n) { return {{"metadata", {{"name", n}}}}; }

}  // namespace

TEST_CASE("parse_list_page hands over each item, drops unread keys, returns the continue token") {
  json page = {
      {"kind", "PodList"},
      {"metadata", {{"continue", "tok"}, {"resourceVersion", "42"}}},
      {"items",
       json::array(
           {{{"metadata",
              {{"name", "a"},
               {"labels", {{"env", "prod"}}},
               {"managedFields", json::array({{{"manager", "kubelet"}}})}}},
             {"spec",
              {{"volumes", json::array({{{"name", "v"}}})},
               {"containers", json::array({{{"name", "c"},
                                            {"env", json::array({{{"name", "X"}, {"value", "1"}}})},
                                            {"resources", {{"limits", {{"nvidia.com/gpu", "1"}}}}}}})}}}},
            {{"metadata", {{"name", "b"}}}}})}};
  std::vector<json> seen;
  const auto info = parse_list_page(
      page.dump(), [&](json& item) { seen.push_back(std::move(item)); }, "GET x");
  CHECK(info.continue_token == "tok");
  CHECK(info.resource_version == "42");
  CHECK(info.items == 2);
  REQUIRE(seen.size() == 2);
  CHECK(seen[0]["metadata"]["name"] == "a");
  CHECK(seen[0]["metadata"]["labels"]["env"] == "prod");  // a label, not a container's env
  CHECK_FALSE(seen[0]["metadata"].contains("managedFields"));
  CHECK_FALSE(seen[0]["spec"].contains("volumes"));
  CHECK_FALSE(seen[0]["spec"]["containers"][0].contains("env"));
  CHECK(seen[0]["spec"]["containers"][0]["resources"]["limits"]["nvidia.com/gpu"] == "1");
  CHECK(seen[1]["metadata"]["name"] == "b");

  CHECK(parse_list_page(R"({"items":[]})", [](json&) { FAIL("no items"); }, "GET x").continue_token.empty());
  CHECK_THROWS_AS(parse_list_page(
                      "<html>", [](json&) {}, "GET x"),
                  trainctl::Error);
}

TEST_CASE("stream_all continues unfinished lists together, one round per page; a 404 list is skipped") {
  FakeClient c;
  auto item = [](const std::string& n) { return json{{"metadata", {{"name", n}}}}; };
  c.on_get("/a?limit=2", FakeClient::list(json::array({item("a1"), item("a2")}), "a-2"));
  c.on_get("/b?labelSelector=x%3D1&limit=2", FakeClient::list(json::array({item("b1"), item("b2")}), "b/2"));
  c.on_not_found("/c?limit=2");
  c.on_get("/a?limit=2&continue=a-2", FakeClient::list(json::array({item("a3"), item("a4")}), "a-3"));
  c.on_get("/b?labelSelector=x%3D1&limit=2&continue=b%2F2", FakeClient::list(json::array({item("b3")})));
  c.on_get("/a?limit=2&continue=a-3", FakeClient::list(json::array({item("a5")})));
  std::vector<std::string> a, b;
  auto names = [](std::vector<std::string>& v) {
    return [&v](json& i) { v.push_back(i["metadata"]["name"]); };
  };
  const auto missing = stream_all(c,
                                  {{"/a", true, {}, names(a)},
                                   {"/b", true, selector("x=1"), names(b)},
                                   {"/c", true, {}, [](json&) { FAIL("404 list has no items"); }}},
                                  2);
  CHECK(missing == std::vector<bool>{false, false, true});
  CHECK(a == std::vector<std::string>{"a1", "a2", "a3", "a4", "a5"});
  CHECK(b == std::vector<std::string>{"b1", "b2", "b3"});
  CHECK(c.batches() == std::vector<size_t>{3, 2, 1});
  CHECK_NOTHROW(c.verify());
}

// A page of 500 pods as a kubelet leaves them is 4 MB: later pages ask for as many items as
// fit in kPageBytes at the bytes per item of the page before, up to the page size.
TEST_CASE("stream_all sizes a list's later pages by the bytes of its items") {
  FakeClient c;
  // 10 items of about 300 KB: the next page asks for 1 MiB / 300 KB = 3 of them.
  auto big = [](const std::string& n) {
    return json{{"metadata", {{"name", n}, {"annotations", {{"a", std::string(300000, 'x')}}}}}};
  };
  json first = json::array();
  for (int n = 0; n < 10; ++n) first.push_back(big("p" + std::to_string(n)));
  c.on_get("/pods?limit=10", FakeClient::list(first, "t1"));
  const size_t bytes = FakeClient::list(first, "t1").dump().size();
  const int fit = static_cast<int>(kPageBytes * 10 / bytes);
  REQUIRE(fit == 3);
  // Items of 50 bytes: back to the page size, never above it.
  c.on_get("/pods?limit=3&continue=t1", FakeClient::list(json::array({item("s1"), item("s2"), item("s3")}), "t2"));
  c.on_get("/pods?limit=10&continue=t2", FakeClient::list(json::array({item("s4")})));
  size_t seen = 0;
  stream_all(c, {{"/pods", true, {}, [&](json&) { ++seen; }}}, 10);
  CHECK(seen == 14);
  CHECK_NOTHROW(c.verify());
  // The bodies of later pages are made for a page of kPageBytes at once, not grown by doubling.
  REQUIRE(c.requests().size() == 3);
  CHECK(c.requests()[0].expected_bytes == 0);
  CHECK(c.requests()[1].expected_bytes > kPageBytes);
  CHECK(c.requests()[2].expected_bytes > kPageBytes);
}

// A first page's items may be 8 KB pods: it asks for kFirstPageItems, not the page size.
TEST_CASE("stream_all asks for at most 100 items in a list's first page") {
  FakeClient c;
  c.on_get("/pods?limit=100", FakeClient::list(json::array({item("a")}), "t1"));
  c.on_get("/pods?limit=500&continue=t1", FakeClient::list(json::array({item("b")})));
  c.on_get("/nodes?limit=20", FakeClient::list(json::array({item("n")})));
  size_t seen = 0;
  stream_all(c, {{"/pods", true, {}, [&](json&) { ++seen; }}});
  stream_all(c, {{"/nodes", true, {}, [&](json&) { ++seen; }}}, 20);  // a smaller page size stays
  CHECK(seen == 3);
  CHECK_NOTHROW(c.verify());
}

TEST_CASE("stream_all: a limited read takes one page; an error on a later page is not a 404 skip") {
  FakeClient c;
  c.on_get("/api/v1/nodes?limit=1",
           FakeClient::list(json::array({{{"metadata", {{"name", "n1"}}}}}), "more"));
  int nodes = 0;
  stream_all(c, {{"/api/v1/nodes", true, kube::ListQuery{.limit = 1}, [&](json&) { ++nodes; }}});
  CHECK(nodes == 1);
  CHECK_NOTHROW(c.verify());

  FakeClient gone;
  gone.on_get("/a?limit=100", FakeClient::list(json::array(), "next"));
  gone.on_not_found("/a?limit=500&continue=next");
  CHECK_THROWS_AS(stream_all(gone, {{"/a", true, {}, [](json&) {}}}), trainctl::ApiError);
}

TEST_CASE("stream_all: a read with on_error is skipped when refused; the others are read") {
  FakeClient c;
  c.on_get("/a?limit=100", FakeClient::list(json::array({item("a1")})));
  c.on(
      "GET", "/b?limit=100", 403,
      {{"kind", "Status"}, {"status", "Failure"}, {"reason", "Forbidden"}, {"code", 403}, {"message", "no"}});
  c.on_not_found("/c?limit=100");
  std::vector<std::string> a, refused;
  StreamRead b{"/b", true, {}, [](json&) { FAIL("a refused list has no items"); }};
  b.on_error = [&refused](const ApiError& e) {
    refused.push_back(std::to_string(e.http_status()) + " " + e.reason());
  };
  StreamRead not_served{"/c", true, {}, [](json&) {}};
  not_served.on_error = [&refused](const ApiError& e) { refused.push_back(std::to_string(e.http_status())); };
  const auto missing =
      stream_all(c, {{"/a", true, {}, [&a](json& i) { a.push_back(i["metadata"]["name"]); }}, b, not_served});
  CHECK(missing == std::vector<bool>{false, true, true});
  CHECK(a == std::vector<std::string>{"a1"});
  CHECK(refused == std::vector<std::string>{"403 Forbidden", "404"});
  CHECK_NOTHROW(c.verify());

  // Without on_error a 403 fails the round.
  FakeClient strict;
  strict.on(
      "GET", "/b?limit=100", 403,
      {{"kind", "Status"}, {"status", "Failure"}, {"reason", "Forbidden"}, {"code", 403}, {"message", "no"}});
  CHECK_THROWS_AS(stream_all(strict, {{"/b", true, {}, [](json&) {}}}), trainctl::ApiError);
}

TEST_CASE("stream_all starts every read again once when a later page expired") {
  FakeClient c;
  c.on_get("/a?limit=1", FakeClient::list(json::array({item("a1")}), "t1"));
  c.on_get("/b?limit=1", FakeClient::list(json::array({item("b1")})));
  c.on("GET", "/a?limit=1&continue=t1", 410, continue_expired_status());
  c.on_get("/a?limit=1", FakeClient::list(json::array({item("a1")}), "t2"));
  c.on_get("/b?limit=1", FakeClient::list(json::array({item("b1")})));
  c.on_get("/a?limit=1&continue=t2", FakeClient::list(json::array({item("a2")})));
  std::vector<std::string> a, b;
  int restarts = 0;
  stream_all(c,
             {{"/a", true, {}, [&](json& i) { a.push_back(i["metadata"]["name"]); }},
              {"/b", true, {}, [&](json& i) { b.push_back(i["metadata"]["name"]); }}},
             1, [&] {
               ++restarts;
               a.clear();
               b.clear();
             });
  CHECK(restarts == 1);
  CHECK(a == std::vector<std::string>{"a1", "a2"});
  CHECK(b == std::vector<std::string>{"b1"});
  CHECK_NOTHROW(c.verify());
}

TEST_CASE("stream_all: a second expiry, or one without a way to start again, is one line") {
  FakeClient c;
  for (const char* tok : {"t1", "t2"}) {
    c.on_get("/api/v1/namespaces/ns/pods?labelSelector=x&limit=1",
             FakeClient::list(json::array({item("p")}), tok));
    c.on("GET", std::string("/api/v1/namespaces/ns/pods?labelSelector=x&limit=1&continue=") + tok, 410,
         continue_expired_status());
  }
  try {
    stream_all(c, {{"/api/v1/namespaces/ns/pods", true, selector("x"), [](json&) {}}}, 1, [] {});
    FAIL("no error");
  } catch (const trainctl::Error& e) {
    CHECK(std::string(e.what()) ==
          "the server expired the list of pods twice while trainctl read it page by page (410 Expired: the "
          "cluster compacted its history meanwhile); try again");
  }
  CHECK_NOTHROW(c.verify());

  // The first page itself expiring is not paging: its error goes through as it is.
  FakeClient first;
  first.on("GET", "/a?limit=1", 410, continue_expired_status());
  bool restarted = false;
  CHECK_THROWS_AS(stream_all(first, {{"/a", true, {}, [](json&) {}}}, 1, [&] { restarted = true; }),
                  trainctl::ApiError);
  CHECK_FALSE(restarted);
}

TEST_CASE("read_all: 404 marks a result not found, other errors propagate with their exit code") {
  FakeClient c;
  c.on_not_found("/apis/x/v1/things?limit=100");
  c.on_get("/api/v1/pods?limit=100", FakeClient::list(json::array({{{"metadata", {{"name", "p"}}}}})));
  c.on_get("/api/v1/namespaces/default/pods/p", json{{"metadata", {{"name", "p"}}}});
  auto r = read_all(
      c, {{"/apis/x/v1/things", true}, {"/api/v1/pods", true}, {"/api/v1/namespaces/default/pods/p", false}});
  CHECK(r[0].not_found);
  REQUIRE(r[1].items.size() == 1);
  CHECK(r[2].object["metadata"]["name"] == "p");
  REQUIRE(c.batches().size() == 1);
  CHECK(c.batches()[0] == 3);

  FakeClient forbidden;
  const json status = {{"kind", "Status"}, {"reason", "Forbidden"}, {"code", 403}};
  forbidden.on("GET", "/api/v1/nodes?limit=100", 403, status);
  try {
    read_all(forbidden, {{"/api/v1/nodes", true}});
    FAIL("no error");
  } catch (const trainctl::ApiError& e) {
    CHECK(e.code() == trainctl::ExitCode::Auth);
  }
}

TEST_CASE("stream_all over HTTPS follows continue tokens over three pages, the token encoded",
          "[client][paging]") {
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
  stream_all(*client,
             {list_read(pods(), "", selector("app=train"),
                        [&](nlohmann::json& item) { names.push_back(item["metadata"]["name"]); })},
             2);
  CHECK(names == std::vector<std::string>{"a", "b", "c", "d", "e"});
  CHECK(queries == std::vector<std::string>{"app=train|2|", "app=train|2|tok/1+=", "app=train|2|tok2"});
}

TEST_CASE("stream_all over HTTPS lists again from the start once when a continue token expired",
          "[client][paging]") {
  ServerFixture fx;
  std::vector<std::string> queries;
  std::mutex mutex;
  int firsts = 0;
  fx.server.routes().Get("/api/v1/pods", [&](const httplib::Request& req, httplib::Response& res) {
    std::lock_guard lock(mutex);
    const std::string cont = req.get_param_value("continue");
    queries.push_back(cont);
    nlohmann::json page{{"kind", "PodList"}, {"apiVersion", "v1"}};
    if (cont.empty()) {
      ++firsts;
      page["items"] = {{{"metadata", {{"name", "a"}}}}};
      page["metadata"] = {{"continue", "t" + std::to_string(firsts)}, {"resourceVersion", "40"}};
    } else if (cont == "t2") {
      page["items"] = {{{"metadata", {{"name", "b"}}}}};
      page["metadata"] = {{"resourceVersion", "40"}};
    } else {
      res.status = 410;
      res.set_content(continue_expired_status().dump(), "application/json");
      return;
    }
    res.set_content(page.dump(), "application/json");
  });
  fx.server.start();
  auto waits = std::make_shared<RecordedWaits>();
  auto client = kube::make_curl_client(fx.config(), fast_options(waits));
  std::vector<std::string> names;
  int restarts = 0;
  LogCapture logs(log::Level::Debug);
  stream_all(
      *client,
      {list_read(pods(), "", {}, [&](nlohmann::json& item) { names.push_back(item["metadata"]["name"]); })},
      1, [&] {
        ++restarts;
        names.clear();
      });
  CHECK(names == std::vector<std::string>{"a", "b"});
  CHECK(restarts == 1);
  CHECK(queries == std::vector<std::string>{"", "t1", "", "t2"});
  CHECK(logs.text().find("the continue token expired") != std::string::npos);

  // Expired again after the restart: one line saying so.
  firsts = 10;  // tokens t11, t12: both expire
  queries.clear();
  try {
    stream_all(*client, {list_read(pods(), "", {}, [](nlohmann::json&) {})}, 1, [] {});
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()) ==
          "the server expired the list of pods twice while trainctl read it page by page (410 Expired: the "
          "cluster compacted its history meanwhile); try again");
  }
  CHECK(queries == std::vector<std::string>{"", "t11", "", "t12"});
}

namespace {

// Counts the rounds sent, for a handler on another thread to wait for.
class RoundCounter : public FakeClient {
 public:
  std::vector<Result> send_all(const std::vector<kube::Request>& requests) override {
    auto out = FakeClient::send_all(requests);
    {
      std::lock_guard lock(m_mu);
      ++m_rounds;
    }
    m_cv.notify_all();
    return out;
  }
  bool wait_for_rounds(size_t n) {
    std::unique_lock lock(m_mu);
    return m_cv.wait_for(lock, std::chrono::seconds(10), [&] { return m_rounds >= n; });
  }

 private:
  std::mutex m_mu;
  std::condition_variable m_cv;
  size_t m_rounds = 0;
};

}  // namespace

TEST_CASE("stream_all asks for the next page before it hands over the items of this one") {
  RoundCounter c;
  c.on_get("/a?limit=2", FakeClient::list(json::array({item("a1"), item("a2")}), "next"));
  c.on_get("/a?limit=2&continue=next", FakeClient::list(json::array({item("a3")})));
  std::vector<std::string> seen;
  bool ahead = false;
  stream_all(c, {{"/a", true, {}, [&](json& i) {
                    if (seen.empty()) ahead = c.wait_for_rounds(2);  // the second page is on its way
                    seen.push_back(i["metadata"]["name"]);
                  }}},
             2);
  CHECK(ahead);
  CHECK(seen == std::vector<std::string>{"a1", "a2", "a3"});
  CHECK(c.batches() == std::vector<size_t>{1, 1});

  // A handler that fails while the next page is on its way: the error goes on, once that
  // page has come.
  RoundCounter d;
  d.on_get("/a?limit=2", FakeClient::list(json::array({item("a1"), item("a2")}), "next"));
  d.on_get("/a?limit=2&continue=next", FakeClient::list(json::array({item("a3")})));
  CHECK_THROWS_WITH(stream_all(d, {{"/a", true, {}, [](json&) { throw Error("handler failed"); }}}, 2),
                    "handler failed");
  CHECK(d.batches() == std::vector<size_t>{1, 1});
}

namespace {

// Notes the kernel's id of the thread that sends each round (thread ids of the kernel are not
// reused soon, unlike std::thread::id).
class RoundThreads : public FakeClient {
 public:
  std::vector<Result> send_all(const std::vector<kube::Request>& requests) override {
    tids.push_back(gettid());
    return FakeClient::send_all(requests);
  }
  std::vector<pid_t> tids;
};

}  // namespace

TEST_CASE("stream_all sends every round after the first from one thread, not a thread per round") {
  RoundThreads c;
  // Two lists of 4 and 2 pages: 4 rounds, the first sent by the caller.
  for (int page = 0; page < 4; ++page) {
    const std::string cont = page == 0 ? "" : "&continue=a" + std::to_string(page);
    c.on_get("/a?limit=1" + cont, FakeClient::list(json::array({item("a" + std::to_string(page))}),
                                                    page < 3 ? "a" + std::to_string(page + 1) : ""));
  }
  c.on_get("/b?limit=1", FakeClient::list(json::array({item("b0")}), "b1"));
  c.on_get("/b?limit=1&continue=b1", FakeClient::list(json::array({item("b1")})));
  size_t items = 0;
  auto count = [&items](json&) { ++items; };
  stream_all(c, {{"/a", true, {}, count}, {"/b", true, {}, count}}, 1);
  CHECK(items == 6);
  CHECK(c.batches() == std::vector<size_t>{2, 2, 1, 1});
  REQUIRE(c.tids.size() == 4);
  CHECK(c.tids[0] == gettid());
  const std::set<pid_t> later(c.tids.begin() + 1, c.tids.end());
  CHECK(later.size() == 1);
  CHECK(*later.begin() != gettid());
  CHECK_NOTHROW(c.verify());
}
