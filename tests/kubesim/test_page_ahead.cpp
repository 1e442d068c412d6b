// Pages of a paged list computed ahead (page_ahead.h): answered only when they are what the
// request would have had.
#include "kubesim/page_ahead.h"
#include "rest_fixture.h"

#include <catch2/catch.hpp>
#include <zlib.h>

#include <algorithm>
#include <stdexcept>
#include <thread>

using kubesim::json;
using kubesim::PageAhead;
using kubesim::testing::SimServer;
using kubesim::testing::gunzip;
using kubesim::testing::add_padded_pods;

namespace {

PageAhead::Answer answer(const std::string& body, uint64_t rv) {
  PageAhead::Answer a;
  a.body = body;
  a.store_rv = rv;
  return a;
}

// The page after `token` (the first page for ""), as JSON, decoded when gzip-encoded.
json page(httplib::SSLClient& c, int limit, const std::string& token, bool gzip, int* status = nullptr) {
  std::string path = "/api/v1/namespaces/default/pods?limit=" + std::to_string(limit);
  if (!token.empty()) path += "&continue=" + httplib::detail::encode_query_param(token);
  httplib::Headers h;
  if (gzip) h.emplace("Accept-Encoding", "gzip");
  auto r = c.Get(path.c_str(), h);
  REQUIRE(r);
  if (status) *status = r->status;
  if (r->status != 200) return json::parse(r->body);
  return json::parse(r->get_header_value("Content-Encoding") == "gzip" ? gunzip(r->body) : r->body);
}

}  // namespace

TEST_CASE("PageAhead answers a page only for its key and the store's resourceVersion it was computed at",
          "[kubesim][page_ahead]") {
  PageAhead ahead;
  ahead.start("k1", [] { return answer("one", 7); });
  ahead.start("k2", [] { return answer("two", 7); });
  CHECK_FALSE(ahead.take("k3", 7));
  auto a = ahead.take("k1", 7);
  REQUIRE(a);
  CHECK(a->body == "one");
  CHECK_FALSE(ahead.take("k1", 7));  // taken once
  CHECK_FALSE(ahead.take("k2", 8));  // the store changed since: gone
  CHECK_FALSE(ahead.take("k2", 7));

  ahead.start("k", [] { return answer("old", 1); });
  ahead.start("k", [] { return answer("new", 1); });
  CHECK(ahead.take("k", 1)->body == "new");
  ahead.start("bad", []() -> PageAhead::Answer { throw std::runtime_error("expired"); });
  CHECK_FALSE(ahead.take("bad", 1));  // the request computes it again and answers the error

  for (int i = 0; i < 20; ++i) ahead.start("n" + std::to_string(i), [i] { return answer(std::to_string(i), 1); });
  CHECK_FALSE(ahead.take("n0", 1));  // only the newest few are kept
  CHECK(ahead.take("n19", 1)->body == "19");
}

TEST_CASE("a list walked page by page is the same whether its pages were computed ahead or when asked for",
          "[kubesim][rest][page_ahead]") {
  SimServer sim;
  add_padded_pods(sim, 200);
  auto c = sim.client();
  c->set_decompress(false);
  for (const bool gzip : {true, false}) {
    INFO("gzip " << gzip);
    std::vector<std::string> names;
    std::string token;
    json first = page(*c, 70, "", gzip);
    for (json p = first;;) {
      for (const auto& item : p["items"]) names.push_back(item["metadata"]["name"]);
      if (!p["metadata"].contains("continue")) break;
      const std::string next = p["metadata"]["continue"];
      std::this_thread::sleep_for(std::chrono::milliseconds(50));  // the next page is ready by now
      json ahead = page(*c, 70, next, gzip);
      // The same page computed when asked for: another encoding is another key.
      json asked = page(*c, 70, next, !gzip);
      CHECK(ahead == asked);
      p = ahead;
    }
    REQUIRE(names.size() == 200);
    CHECK(names.front() == "p000");
    CHECK(names.back() == "p199");
    CHECK(std::is_sorted(names.begin(), names.end()));
  }
}

TEST_CASE("a write between two pages reaches the next page, though it was computed before",
          "[kubesim][rest][page_ahead]") {
  SimServer sim;
  add_padded_pods(sim, 100);
  auto c = sim.client();
  c->set_decompress(false);
  json first = page(*c, 70, "", true);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // page 2 computed ahead
  const auto* pods = sim.store.find("", "v1", "pods");
  json p = *sim.store.get(*pods, "default", "p080");
  p["metadata"]["labels"] = {{"changed", "yes"}};
  sim.store.update(*pods, p);
  json second = page(*c, 70, first["metadata"]["continue"], true);
  REQUIRE(second["items"].size() == 30);
  CHECK(second["items"][10]["metadata"]["name"] == "p080");
  CHECK(second["items"][10]["metadata"]["labels"]["changed"] == "yes");
}

TEST_CASE("a page computed ahead whose list was compacted since answers 410 Expired",
          "[kubesim][rest][page_ahead]") {
  SimServer sim;
  sim.store.set_compaction_interval(std::chrono::seconds(1));
  add_padded_pods(sim, 100);
  auto c = sim.client();
  json first = page(*c, 40, "", false);
  // A write, then page 2: its list keeps page 1's revision, and page 3 is computed ahead at
  // the store's new one.
  const auto* cms = sim.store.find("", "v1", "configmaps");
  sim.store.create(*cms, {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", "w"}, {"namespace", "default"}}}});
  json second = page(*c, 40, first["metadata"]["continue"], false);
  REQUIRE(second["items"].size() == 40);
  // Two compaction intervals later page 1's revision is compacted, with nothing written since.
  std::this_thread::sleep_for(std::chrono::milliseconds(2300));
  int status = 0;
  json third = page(*c, 40, second["metadata"]["continue"], false, &status);
  CHECK(status == 410);
  CHECK(third["reason"] == "Expired");
}

TEST_CASE("a list whose store is written between its pages has its next pages computed when asked for, not ahead",
          "[kubesim][rest][page_ahead]") {
  SimServer sim;
  add_padded_pods(sim, 100);
  auto c = sim.client();
  auto counters = [&] {
    auto r = c->Get("/kubesim/page-ahead");
    REQUIRE(r);
    REQUIRE(r->status == 200);
    return json::parse(r->body);
  };
  const auto* cms = sim.store.find("", "v1", "configmaps");
  // walk(write): the 10 pages of 10 pods, a ConfigMap written before each page after the first
  // when `write`; the names seen.
  auto walk = [&](bool write) {
    std::vector<std::string> names;
    std::string token;
    for (int n = 0;; ++n) {
      if (write && n > 0)
        sim.store.create(*cms, {{"apiVersion", "v1"},
                                {"kind", "ConfigMap"},
                                {"metadata", {{"name", "w" + std::to_string(n)}, {"namespace", "default"}}}});
      json p = page(*c, 10, token, false);
      for (const auto& item : p["items"]) names.push_back(item["metadata"]["name"]);
      if (!p["metadata"].contains("continue")) break;
      token = p["metadata"]["continue"];
    }
    return names;
  };
  const json before = counters();
  CHECK(walk(false).size() == 100);
  const json quiet = counters();
  CHECK(quiet["computed"].get<int>() - before["computed"].get<int>() == 9);  // pages 2 to 10
  CHECK(quiet["served"].get<int>() - before["served"].get<int>() == 9);
  CHECK(quiet["skipped"] == before["skipped"]);

  const std::vector<std::string> names = walk(true);
  CHECK(names.size() == 100);
  CHECK(std::is_sorted(names.begin(), names.end()));
  const json busy = counters();
  // Page 2 was computed ahead and found stale; pages 3 to 10 were computed when asked for.
  CHECK(busy["computed"].get<int>() - quiet["computed"].get<int>() == 1);
  CHECK(busy["stale"].get<int>() - quiet["stale"].get<int>() == 1);
  CHECK(busy["served"] == quiet["served"]);
  CHECK(busy["skipped"].get<int>() - quiet["skipped"].get<int>() == 8);

  // A page that finds the store as the last one left it computes ahead again.
  json first = page(*c, 10, "", false);
  sim.store.create(*cms, {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", "x"}, {"namespace", "default"}}}});
  json second = page(*c, 10, first["metadata"]["continue"], false);  // stale: page 3 skipped
  json third = page(*c, 10, second["metadata"]["continue"], false);  // not written since: page 4 ahead
  page(*c, 10, third["metadata"]["continue"], false);
  const json again = counters();
  CHECK(again["skipped"].get<int>() - busy["skipped"].get<int>() == 1);
  CHECK(again["served"].get<int>() - busy["served"].get<int>() == 1);
}
