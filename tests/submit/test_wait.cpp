// --wait follows the job through watch streams (never polling) until its pods run or it ends.
#include <catch2/catch.hpp>
#include <map>

#include "core/errors.h"
#include "core/log.h"
#include "scripted_client.h"
#include "submit/wait.h"

using namespace trainctl;
using namespace trainctl::testing;
using nlohmann::json;

namespace {

const jobs::JobKind& kind(const char* name) { return jobs::kind_named(name); }

json pod(const std::string& name, const std::string& phase, const std::string& rv = "5") {
  return {{"metadata", {{"name", name}, {"resourceVersion", rv}}}, {"status", {{"phase", phase}}}};
}

json list(const json& items, const std::string& rv = "10") {
  return {{"kind", "List"}, {"metadata", {{"resourceVersion", rv}}}, {"items", items}};
}

json pytorch_job(const std::string& condition) {
  json j = {{"metadata", {{"name", "demo"}, {"resourceVersion", "7"}}}};
  if (!condition.empty()) j["status"]["conditions"] = {{{"type", condition}, {"status", "True"}}};
  return j;
}

}  // namespace

TEST_CASE("--wait: returns once every pod runs, from a watch started at the list's version", "[wait]") {
  ScriptedClient client(
      [](const kube::Request& r, int) -> kube::Response {
        CHECK(r.path.find("/api/v1/namespaces/ns1/pods?labelSelector=") == 0);
        return ScriptedClient::ok(list(json::array({pod("demo-master-0", "Pending")})), 200);
      },
      [](const kube::Request& r, int) -> std::vector<std::string> {
        CHECK(r.path.find("watch=true") != std::string::npos);
        CHECK(r.path.find("resourceVersion=10") != std::string::npos);
        return {watch_event("MODIFIED", pod("demo-master-0", "Running")),
                watch_event("ADDED", pod("demo-worker-0", "Pending")),
                "",
                watch_event("BOOKMARK", {{"metadata", {{"resourceVersion", "12"}}}}),
                watch_event("MODIFIED", pod("demo-worker-0", "Running")),
                watch_event("MODIFIED", pod("never-read", "Running"))};
      });
  std::vector<std::string> lines;
  submit::WaitOptions o;
  o.sleep = [](std::chrono::milliseconds) {};  // no backoff slept
  o.expected_pods = 2;
  o.on_status = [&](const std::string& l) { lines.push_back(l); };
  CHECK(submit::wait_for_job(client, kind("pytorchjob"), "ns1", "demo", o) == jobs::JobStatus::Running);
  CHECK(lines == std::vector<std::string>{"job demo: 0/2 pods running", "job demo: 1/2 pods running",
                                          "job demo: 2/2 pods running"});
  CHECK(client.streams().size() == 1);
  // The selector names the job's own pods and leaves out TensorBoard.
  CHECK(client.requests()[0].path.find(kube::url_encode("app=pytorchjob,release=demo,role!=tensorboard")) !=
        std::string::npos);
}

TEST_CASE("--wait: every kind's pods are found by its own pod selector, Arena's labels where releases differ",
          "[wait]") {
  // training-operator v1.3 and pytorch-operator label PyTorchJob and TFJob pods otherwise
  // (jobs/legacy_pods.h): those are followed by the app and release labels trainctl renders.
  const std::map<std::string, std::string> selectors = {
      {"pytorchjob", "app=pytorchjob,release=demo,role!=tensorboard"},
      {"tfjob", "app=tfjob,release=demo,role!=tensorboard"},
      {"mpijob", "training.kubeflow.org/job-name=demo,training.kubeflow.org/operator-name=mpi-operator"},
      {"volcanojob", "volcano.sh/job-name=demo"},
      {"batchjob", "job-name=demo"},
      {"trainjob", "jobset.sigs.k8s.io/jobset-name=demo"}};
  for (const auto& k : jobs::all_kinds()) {
    std::string path;
    ScriptedClient client(
        [&](const kube::Request& r, int) -> kube::Response {
          path = r.path;
          return ScriptedClient::ok(list(json::array({pod("demo-0", "Running")})), 200);
        },
        [](const kube::Request&, int) -> std::vector<std::string> { return {}; });
    submit::WaitOptions o;
    o.sleep = [](std::chrono::milliseconds) {};
    CHECK(submit::wait_for_job(client, k, "ns1", "demo", o) == jobs::JobStatus::Running);
    INFO(k.resource.kind << " " << path);
    CHECK(path == "/api/v1/namespaces/ns1/pods?labelSelector=" + kube::url_encode(selectors.at(k.name)));
  }
}

TEST_CASE("--wait=finished: exit 0 on success, JobFailed on failure", "[wait]") {
  for (const std::string end : {"Succeeded", "Failed"}) {
    ScriptedClient client(
        [](const kube::Request& r, int) -> kube::Response {
          CHECK(r.path.find(
                    "/apis/kubeflow.org/v1/namespaces/ns1/pytorchjobs?fieldSelector=metadata.name%3Ddemo") ==
                0);
          return ScriptedClient::ok(list(json::array({pytorch_job("Created")})), 200);
        },
        [&](const kube::Request&, int) -> std::vector<std::string> {
          return {watch_event("MODIFIED", pytorch_job("Running")), watch_event("MODIFIED", pytorch_job(end))};
        });
    submit::WaitOptions o;
    o.sleep = [](std::chrono::milliseconds) {};  // no backoff slept
    o.until_finished = true;
    std::vector<std::string> lines;
    o.on_status = [&](const std::string& l) { lines.push_back(l); };
    if (end == "Succeeded") {
      CHECK(submit::wait_for_job(client, kind("pytorchjob"), "ns1", "demo", o) == jobs::JobStatus::Succeeded);
      CHECK(lines ==
            std::vector<std::string>{"job demo: PENDING", "job demo: RUNNING", "job demo: SUCCEEDED"});
    } else {
      try {
        submit::wait_for_job(client, kind("pytorchjob"), "ns1", "demo", o);
        FAIL("no error");
      } catch (const Error& e) {
        CHECK(e.code() == ExitCode::JobFailed);
        CHECK(std::string(e.what()) == "job demo failed");
      }
    }
  }
}

TEST_CASE("--wait: a failed pod makes it ask the job, outside the stream", "[wait]") {
  int gets = 0;
  ScriptedClient client(
      [&](const kube::Request& r, int) -> kube::Response {
        ++gets;
        if (r.path == "/apis/kubeflow.org/v1/namespaces/ns1/pytorchjobs/demo")
          return ScriptedClient::ok(pytorch_job("Failed"), 200);
        return ScriptedClient::ok(list(json::array()), 200);
      },
      [](const kube::Request&, int) -> std::vector<std::string> {
        return {watch_event("ADDED", pod("demo-master-0", "Failed"))};
      });
  submit::WaitOptions o;
  o.sleep = [](std::chrono::milliseconds) {};  // no backoff slept
  o.expected_pods = 1;
  CHECK_THROWS_MATCHES(
      submit::wait_for_job(client, kind("pytorchjob"), "ns1", "demo", o), Error,
      Catch::Predicate<Error>([](const Error& e) { return e.code() == ExitCode::JobFailed; }));
  CHECK(gets == 2);  // the pod list, then the job
}

TEST_CASE("--wait: after a pod ends and the job still runs, the watch goes on without a new list", "[wait]") {
  std::vector<std::string> gets, watches;
  ScriptedClient client(
      [&](const kube::Request& r, int) -> kube::Response {
        gets.push_back(r.path);
        if (r.path == "/apis/kubeflow.org/v1/namespaces/ns1/pytorchjobs/demo")
          return ScriptedClient::ok(pytorch_job("Running"), 200);
        return ScriptedClient::ok(list(json::array({pod("demo-master-0", "Running", "8")})), 200);
      },
      [&](const kube::Request& r, int) -> std::vector<std::string> {
        watches.push_back(r.path);
        if (watches.size() == 1) return {watch_event("MODIFIED", pod("demo-worker-0", "Succeeded", "11"))};
        return {watch_event("MODIFIED", pod("demo-worker-1", "Running", "12"))};
      });
  submit::WaitOptions o;
  o.sleep = [](std::chrono::milliseconds) {};  // no backoff slept
  o.expected_pods = 2;
  CHECK(submit::wait_for_job(client, kind("pytorchjob"), "ns1", "demo", o) == jobs::JobStatus::Running);
  // The pod list once, the job once; the second watch resumes at the ended pod's version.
  REQUIRE(gets.size() == 2);
  CHECK(gets[0].rfind("/api/v1/namespaces/ns1/pods?", 0) == 0);
  CHECK(gets[1] == "/apis/kubeflow.org/v1/namespaces/ns1/pytorchjobs/demo");
  REQUIRE(watches.size() == 2);
  CHECK(watches[0].find("resourceVersion=10") != std::string::npos);
  CHECK(watches[1].find("resourceVersion=11") != std::string::npos);
}

TEST_CASE("--timeout ends the wait with ExitCode::Timeout", "[wait]") {
  auto now = std::chrono::system_clock::time_point{} + std::chrono::hours(1000);
  ScriptedClient client(
      [](const kube::Request&, int) { return ScriptedClient::ok(list(json::array()), 200); },
      [&](const kube::Request& r, int) -> std::vector<std::string> {
        // The server ends a watch after timeoutSeconds; the clock moves on.
        CHECK(r.path.find("timeoutSeconds=30") != std::string::npos);
        now += std::chrono::seconds(31);
        return {};
      });
  submit::WaitOptions o;
  o.sleep = [](std::chrono::milliseconds) {};  // no backoff slept
  o.until_finished = true;
  o.timeout = std::chrono::seconds(30);
  o.clock = [&] { return now; };
  try {
    submit::wait_for_job(client, kind("volcanojob"), "ns1", "demo", o);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.code() == ExitCode::Timeout);
    CHECK(std::string(e.what()) == "timed out after 30s waiting for job demo to finish");
  }
}

// The ERROR event kube-apiserver's watch cache sends for a resourceVersion it no longer has
// (k8s.io/apiserver pkg/storage/cacher: newErrWatcher with errors.NewResourceExpired).
std::string too_old(const std::string& asked, const std::string& oldest) {
  return json{{"type", "ERROR"},
              {"object",
               {{"kind", "Status"},
                {"apiVersion", "v1"},
                {"metadata", json::object()},
                {"status", "Failure"},
                {"message", "too old resource version: " + asked + " (" + oldest + ")"},
                {"reason", "Expired"},
                {"code", 410}}}}
      .dump();
}

TEST_CASE("--wait: an ERROR 410 Expired event makes it list again and watch from the new list", "[wait]") {
  int lists = 0;
  std::vector<std::string> watches;
  ScriptedClient client(
      [&](const kube::Request&, int) -> kube::Response {
        ++lists;
        return ScriptedClient::ok(
            list(json::array({pytorch_job(lists == 1 ? "Created" : "Running")}), lists == 1 ? "10" : "20"),
            200);
      },
      [&](const kube::Request& r, int) -> std::vector<std::string> {
        watches.push_back(r.path);
        if (watches.size() == 1) return {too_old("10", "15"), watch_event("MODIFIED", pytorch_job("never-read"))};
        return {watch_event("MODIFIED", pytorch_job("Succeeded"))};
      });
  std::vector<std::string> logged;
  const auto level = log::level();
  log::set_level(log::Level::Debug);
  log::set_sink([&](std::string_view l) { logged.emplace_back(l); });
  submit::WaitOptions o;
  o.sleep = [](std::chrono::milliseconds) {};  // no backoff slept
  o.until_finished = true;
  std::vector<std::string> lines;
  o.on_status = [&](const std::string& l) { lines.push_back(l); };
  const auto phase = submit::wait_for_job(client, kind("pytorchjob"), "ns1", "demo", o);
  log::reset_sink();
  log::set_level(level);
  CHECK(phase == jobs::JobStatus::Succeeded);
  CHECK(lists == 2);
  REQUIRE(watches.size() == 2);
  CHECK(watches[0].find("resourceVersion=10") != std::string::npos);
  CHECK(watches[1].find("resourceVersion=20") != std::string::npos);
  CHECK(watches[0].find("allowWatchBookmarks=true") != std::string::npos);
  CHECK(lines == std::vector<std::string>{"job demo: PENDING", "job demo: RUNNING", "job demo: SUCCEEDED"});
  bool said = false;
  for (const auto& l : logged)
    said = said || l.find("too old resource version: 10 (15)") != std::string::npos;
  CHECK(said);
}

TEST_CASE("--wait: a watch refused with 410 is listed again too; BOOKMARKs move the version on", "[wait]") {
  int lists = 0;
  std::vector<std::string> watches;
  ScriptedClient client(
      [&](const kube::Request&, int) -> kube::Response {
        ++lists;
        return ScriptedClient::ok(list(json::array({pytorch_job("Created")}), lists == 1 ? "10" : "30"), 200);
      },
      [&](const kube::Request& r, int n) -> std::vector<std::string> {
        watches.push_back(r.path);
        if (n == 0)
          return {watch_event("BOOKMARK", {{"kind", "PyTorchJob"}, {"metadata", {{"resourceVersion", "12"}}}})};
        if (n == 1) ScriptedClient::fail(410, "Expired", "too old resource version: 12 (20)");
        return {watch_event("MODIFIED", pytorch_job("Succeeded"))};
      });
  submit::WaitOptions o;
  o.sleep = [](std::chrono::milliseconds) {};  // no backoff slept
  o.until_finished = true;
  CHECK(submit::wait_for_job(client, kind("pytorchjob"), "ns1", "demo", o) == jobs::JobStatus::Succeeded);
  REQUIRE(watches.size() == 3);
  // The stream ended after a bookmark: the next watch starts at the bookmark's version.
  CHECK(watches[1].find("resourceVersion=12") != std::string::npos);
  CHECK(lists == 2);
  CHECK(watches[2].find("resourceVersion=30") != std::string::npos);
}

TEST_CASE("--wait: pods listed again replace what the first list said", "[wait]") {
  int lists = 0;
  ScriptedClient client(
      [&](const kube::Request&, int) -> kube::Response {
        ++lists;
        // First: a worker that is deleted while the watch is gone; then only the master.
        json items = lists == 1
                         ? json::array({pod("demo-master-0", "Pending"), pod("demo-worker-0", "Running")})
                         : json::array({pod("demo-master-0", "Pending")});
        return ScriptedClient::ok(list(items, lists == 1 ? "10" : "20"), 200);
      },
      [&](const kube::Request&, int n) -> std::vector<std::string> {
        if (n == 0) return {too_old("10", "15")};
        return {watch_event("MODIFIED", pod("demo-master-0", "Running", "21")),
                watch_event("ADDED", pod("demo-worker-1", "Running", "22"))};
      });
  submit::WaitOptions o;
  o.sleep = [](std::chrono::milliseconds) {};  // no backoff slept
  o.expected_pods = 2;
  std::vector<std::string> lines;
  o.on_status = [&](const std::string& l) { lines.push_back(l); };
  CHECK(submit::wait_for_job(client, kind("pytorchjob"), "ns1", "demo", o) == jobs::JobStatus::Running);
  // The deleted worker is not counted: 0/2 after the second list, then 1/2, then 2/2.
  CHECK(lines == std::vector<std::string>{"job demo: 0/2 pods running", "job demo: 1/2 pods running",
                                          "job demo: 0/2 pods running", "job demo: 1/2 pods running",
                                          "job demo: 2/2 pods running"});
}

TEST_CASE("--wait: a watch that keeps ending in ERROR gives up with one line", "[wait]") {
  ScriptedClient client(
      [&](const kube::Request&, int) {
        return ScriptedClient::ok(list(json::array({pytorch_job("Created")})), 200);
      },
      [&](const kube::Request&, int) -> std::vector<std::string> {
        return {json{{"type", "ERROR"},
                     {"object",
                      {{"kind", "Status"},
                       {"status", "Failure"},
                       {"message", "Internal error occurred: etcd is down"},
                       {"reason", "InternalError"},
                       {"code", 500}}}}
                    .dump()};
      });
  submit::WaitOptions o;
  o.sleep = [](std::chrono::milliseconds) {};  // no backoff slept
  o.until_finished = true;
  try {
    submit::wait_for_job(client, kind("pytorchjob"), "ns1", "demo", o);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()) ==
          "cannot follow the job: its watch keeps failing (Internal error occurred: etcd is down)");
    CHECK(std::string(e.what()).find('\n') == std::string::npos);
  }
  CHECK(client.streams().size() == 11);
}
