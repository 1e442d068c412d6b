// A continue token that outlived the server's compaction (410 Expired on a later page):
// every read starts again from its first page, once, as client-go's pager does
// (tools/pager/pager.go); a second expiry is one line. Against a FakeClient and against a real
// HTTPS server answering as kube-apiserver (k8s.io/apiserver pkg/storage/etcd3/errors.go).
#include <catch2/catch.hpp>
#include <mutex>

#include "core/errors.h"
#include "job_fixtures.h"
#include "jobs/job_query.h"
#include "jobs/parallel_list.h"
#include "kube/curl_client.h"
#include "kube/test_client_fixture.h"
#include "support/fake_client.h"

using nlohmann::json;
using trainctl::testing::FakeClient;
using namespace trainctl::jobs;
using namespace fixtures;

namespace {

const std::string kMessage =
    "The provided continue parameter is too old to display a consistent list result. You can start a new "
    "list without the continue parameter, or use the continue token in this response to retrieve the "
    "remainder of the results. Continuing with the provided token results in an inconsistent list - "
    "objects that were created, modified, or deleted between the time the first chunk was returned and "
    "now may show up in the list.";

json expired_status() {
  return {{"kind", "Status"},    {"apiVersion", "v1"},  {"metadata", {{"continue", "ENCODED"}}},
          {"status", "Failure"}, {"message", kMessage}, {"reason", "Expired"},
          {"code", 410}};
}

json item(const std::string& n) { return {{"metadata", {{"name", n}}}}; }

}  // namespace

TEST_CASE("stream_all starts every read again once when a later page expired") {
  FakeClient c;
  c.on_get("/a?limit=1", FakeClient::list(json::array({item("a1")}), "t1"));
  c.on_get("/b?limit=1", FakeClient::list(json::array({item("b1")})));
  c.on("GET", "/a?limit=1&continue=t1", 410, expired_status());
  c.on_get("/a?limit=1", FakeClient::list(json::array({item("a1")}), "t2"));
  c.on_get("/b?limit=1", FakeClient::list(json::array({item("b1")})));
  c.on_get("/a?limit=1&continue=t2", FakeClient::list(json::array({item("a2")})));
  std::vector<std::string> a, b;
  int restarts = 0;
  stream_all(c,
             {{"/a", true, 0, [&](json& i) { a.push_back(i["metadata"]["name"]); }},
              {"/b", true, 0, [&](json& i) { b.push_back(i["metadata"]["name"]); }}},
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
         expired_status());
  }
  try {
    stream_all(c, {{"/api/v1/namespaces/ns/pods?labelSelector=x", true, 0, [](json&) {}}}, 1, [] {});
    FAIL("no error");
  } catch (const trainctl::Error& e) {
    CHECK(std::string(e.what()) ==
          "the server expired the list of pods twice while trainctl read it page by page (410 Expired: the "
          "cluster compacted its history meanwhile); try again");
  }
  CHECK_NOTHROW(c.verify());

  // The first page itself expiring is not paging: its error goes through as it is.
  FakeClient first;
  first.on("GET", "/a?limit=1", 410, expired_status());
  bool restarted = false;
  CHECK_THROWS_AS(stream_all(first, {{"/a", true, 0, [](json&) {}}}, 1, [&] { restarted = true; }),
                  trainctl::ApiError);
  CHECK_FALSE(restarted);
}

TEST_CASE("list_jobs over HTTPS: an expired continue token lists again, nothing counted twice") {
  trainctl::testing::ServerFixture fx;
  std::mutex mutex;
  int job_firsts = 0, pod_lists = 0;
  auto list_of = [](const json& items, const std::string& cont) {
    json l = {
        {"kind", "List"}, {"apiVersion", "v1"}, {"metadata", {{"resourceVersion", "50"}}}, {"items", items}};
    if (!cont.empty()) l["metadata"]["continue"] = cont;
    return l.dump();
  };
  fx.server.routes().Get(
      "/apis/kubeflow.org/v1/namespaces/default/pytorchjobs",
      [&](const httplib::Request& req, httplib::Response& res) {
        std::lock_guard lock(mutex);
        const std::string cont = req.get_param_value("continue");
        if (cont.empty()) {
          ++job_firsts;
          res.set_content(list_of(json::array({pytorchjob("a", "2024-05-01T09:58:00Z", 1, 1)}),
                                  "t" + std::to_string(job_firsts)),
                          "application/json");
        } else if (cont == "t2") {
          res.set_content(list_of(json::array({pytorchjob("b", "2024-05-01T09:00:00Z", 1, 1)}), ""),
                          "application/json");
        } else {
          res.status = 410;
          res.set_content(expired_status().dump(), "application/json");
        }
      });
  fx.server.routes().Get("/api/v1/namespaces/default/pods", [&](const httplib::Request&,
                                                                httplib::Response& res) {
    std::lock_guard lock(mutex);
    ++pod_lists;
    res.set_content(
        list_of(json::array({pod("a-master-0", pytorch_labels("a", "master", 0), "Running", 1, "node-1")}),
                ""),
        "application/json");
  });
  fx.server.start();
  auto waits = std::make_shared<trainctl::testing::RecordedWaits>();
  auto client = trainctl::kube::make_curl_client(fx.config(), trainctl::testing::fast_options(waits));
  const auto jobs = list_jobs(*client, "default", {&kind_for(Trainer::PyTorch)}, *parse_time(kNow), true);
  REQUIRE(jobs.size() == 2);
  CHECK(jobs[0].name == "a");
  CHECK(jobs[0].instances.size() == 1);  // its pod, once, though the pods were listed twice
  CHECK(jobs[0].gpus_allocated == 1);
  CHECK(jobs[1].name == "b");
  CHECK(job_firsts == 2);
  CHECK(pod_lists == 2);
}
