// A continue token that outlived the server's compaction (410 Expired on a later page) while
// list_jobs reads: against a real HTTPS server answering as kube-apiserver
// (k8s.io/apiserver pkg/storage/etcd3/errors.go). stream_all's restart itself is tested in
// tests/kube/test_list_reads.cpp.
#include <catch2/catch.hpp>
#include <mutex>

#include "core/errors.h"
#include "job_fixtures.h"
#include "jobs/job_query.h"
#include "kube/curl_client.h"
#include "kube/test_client_fixture.h"

using nlohmann::json;
using namespace trainctl::jobs;
using namespace fixtures;

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
          res.set_content(trainctl::testing::continue_expired_status().dump(), "application/json");
        }
      });
  int legacy_lists = 0;
  fx.server.routes().Get("/api/v1/namespaces/default/pods", [&](const httplib::Request& req,
                                                                httplib::Response& res) {
    std::lock_guard lock(mutex);
    if (req.get_param_value("labelSelector").rfind("group-name=", 0) == 0) {  // older releases' pods
      ++legacy_lists;
      res.set_content(list_of(json::array(), ""), "application/json");
      return;
    }
    ++pod_lists;
    res.set_content(
        list_of(json::array({pod("a-master-0", pytorch_labels("a", "master", 0), "Running", 1, "node-1")}),
                ""),
        "application/json");
  });
  fx.server.start();
  auto waits = std::make_shared<trainctl::testing::RecordedWaits>();
  auto client = trainctl::kube::make_curl_client(fx.config(), trainctl::testing::fast_options(waits));
  const auto jobs = list_jobs(*client, "default", {&kind_named("pytorchjob")}, *parse_time(kNow), true);
  REQUIRE(jobs.size() == 2);
  CHECK(jobs[0].name == "a");
  CHECK(jobs[0].instances.size() == 1);  // its pod, once, though the pods were listed twice
  CHECK(jobs[0].gpus_allocated == 1);
  CHECK(jobs[1].name == "b");
  CHECK(job_firsts == 2);
  CHECK(pod_lists == 2);
  CHECK(legacy_lists == 2);
}
