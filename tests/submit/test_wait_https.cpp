// --wait against answers of kube-apiserver's form on the wire (a real HTTPS server and the
// libcurl client): a watch from a version the server no longer has is HTTP 200 and one ERROR
// event with a 410 Expired Status (k8s.io/apiserver pkg/storage/cacher/cacher.go
// newErrWatcher), after which the stream ends; BOOKMARKs carry only the resourceVersion.
#include <catch2/catch.hpp>
#include <mutex>

#include "kube/curl_client.h"
#include "kube/test_client_fixture.h"
#include "submit/wait.h"

using namespace trainctl;
using namespace trainctl::testing;
using nlohmann::json;

namespace {

json job(const std::string& condition, const std::string& rv) {
  return {{"apiVersion", "kubeflow.org/v1"},
          {"kind", "PyTorchJob"},
          {"metadata", {{"name", "demo"}, {"namespace", "ns1"}, {"resourceVersion", rv}}},
          {"status", {{"conditions", {{{"type", condition}, {"status", "True"}}}}}}};
}

void stream_lines(httplib::Response& res, std::vector<std::string> lines) {
  auto shared = std::make_shared<std::vector<std::string>>(std::move(lines));
  res.status = 200;
  res.set_chunked_content_provider("application/json", [shared](size_t, httplib::DataSink& sink) {
    for (const auto& l : *shared) sink.write(l.data(), l.size());
    sink.done();
    return true;
  });
}

}  // namespace

TEST_CASE("--wait over HTTPS: the ERROR event of an expired watch, then a new list and watch",
          "[wait][https]") {
  ServerFixture fx;
  std::mutex mutex;
  std::vector<std::string> requests;
  int lists = 0;
  fx.server.routes().Get("/apis/kubeflow.org/v1/namespaces/ns1/pytorchjobs", [&](const httplib::Request& req,
                                                                                 httplib::Response& res) {
    std::lock_guard lock(mutex);
    const std::string rv = req.get_param_value("resourceVersion");
    if (req.get_param_value("watch") != "true") {
      requests.push_back("list");
      ++lists;
      json l = {{"kind", "PyTorchJobList"},
                {"apiVersion", "kubeflow.org/v1"},
                {"metadata", {{"resourceVersion", lists == 1 ? "10" : "20"}}},
                {"items", {job(lists == 1 ? "Created" : "Running", lists == 1 ? "9" : "19")}}};
      res.set_content(l.dump(), "application/json");
      return;
    }
    requests.push_back("watch " + rv + " bookmarks=" + req.get_param_value("allowWatchBookmarks"));
    if (rv == "10") {
      stream_lines(res, {R"x({"type":"ERROR","object":{"kind":"Status","apiVersion":"v1",)x"
                         R"x("metadata":{},"status":"Failure","message":"too old resource )x"
                         R"x(version: 10 (15)","reason":"Expired","code":410}})x"
                         "\n"});
      return;
    }
    stream_lines(res, {R"({"type":"BOOKMARK","object":{"kind":"PyTorchJob","apiVersion":)"
                       R"("kubeflow.org/v1","metadata":{"resourceVersion":"25"}}})"
                       "\n",
                       json{{"type", "MODIFIED"}, {"object", job("Succeeded", "26")}}.dump() + "\n"});
  });
  fx.server.start();
  auto waits = std::make_shared<RecordedWaits>();
  auto client = kube::make_curl_client(fx.config(), fast_options(waits));
  submit::WaitOptions o;
  o.sleep = [](std::chrono::milliseconds) {};  // no backoff slept
  o.until_finished = true;
  std::vector<std::string> lines;
  o.on_status = [&](const std::string& l) { lines.push_back(l); };
  CHECK(submit::wait_for_job(*client, jobs::kind_named("pytorchjob"), "ns1", "demo", o) ==
        jobs::JobStatus::Succeeded);
  CHECK(requests ==
        std::vector<std::string>{"list", "watch 10 bookmarks=true", "list", "watch 20 bookmarks=true"});
  CHECK(lines == std::vector<std::string>{"job demo: PENDING", "job demo: RUNNING", "job demo: SUCCEEDED"});
}
