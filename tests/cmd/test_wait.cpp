// trainctl wait: the job found by name (jobs::find_job), followed through its watch, and how
// the wait ended said from what the watch saw: no second read of the job.
#include <catch2/catch.hpp>

#include "cmd_harness.h"
#include "get_stubs.h"

using get_stubs::job_path;
using nlohmann::json;
using trainctl::testing::FakeClient;

namespace {

const std::string kList = "/apis/kubeflow.org/v1/namespaces/default/pytorchjobs?fieldSelector=metadata.name%3Da";

json job_with(const std::string& condition, const std::string& rv) {
  json j = fixtures::pytorchjob("a", "2024-05-01T09:00:00Z", 1, 1);
  j["metadata"]["resourceVersion"] = rv;
  j["status"]["conditions"] = json::array({fixtures::condition(condition, "True", "2024-05-01T09:30:00Z")});
  return j;
}

std::string event(const std::string& type, const json& object) {
  return json{{"type", type}, {"object", object}}.dump();
}

// The PyTorchJob a, running, then succeeded: found, listed, watched; any other request fails.
void stub_succeeding_job(FakeClient& c) {
  c.on_get(job_path(0, "a"), job_with("Running", "9"));
  for (int k = 1; k < get_stubs::kKinds; ++k) c.on_not_found(job_path(k, "a"));
  json list = FakeClient::list(json::array({job_with("Running", "9")}));
  list["metadata"]["resourceVersion"] = "10";
  c.on_get(kList, list);
  c.on_stream(kList + "&watch=true&allowWatchBookmarks=true&timeoutSeconds=300&resourceVersion=10",
              {event("MODIFIED", job_with("Succeeded", "11"))});
}

}  // namespace

TEST_CASE("wait -o json says how the wait ended from the watch, without reading the job again") {
  Harness h;
  stub_succeeding_job(*h.client);
  h.run({"wait", "a", "-o", "json"});
  CHECK(h.out() == R"({
  "name": "a",
  "namespace": "default",
  "kind": "PyTorchJob",
  "status": "SUCCEEDED",
  "result": "succeeded",
  "failure": null
}
)");
  CHECK(h.client->batches() == std::vector<size_t>{get_stubs::kKinds});  // the name, in one round
  CHECK_NOTHROW(h.client->verify());
}

TEST_CASE("wait prints each status it sees, then how the job ended") {
  Harness h;
  stub_succeeding_job(*h.client);
  h.run({"wait", "a"});
  CHECK(h.out() == "job a: RUNNING\njob a: SUCCEEDED\nThe Job a has succeeded\n");
  CHECK(h.err().empty());
  CHECK_NOTHROW(h.client->verify());
}
