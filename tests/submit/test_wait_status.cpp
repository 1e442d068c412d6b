// submit --wait reads a job's status with the rule list and get use: every row of the status
// table (tests/jobs/status_table.h) ends, fails or continues the wait as its status says.
#include <catch2/catch.hpp>

#include "core/errors.h"
#include "jobs/status_rules.h"
#include "jobs/status_table.h"
#include "scripted_client.h"
#include "submit/wait.h"

using namespace trainctl;
using namespace trainctl::testing;
using jobs::JobStatus;
using nlohmann::json;

namespace {

json list_of(const json& item, const std::string& rv = "10") {
  return {{"kind", "List"}, {"metadata", {{"resourceVersion", rv}}}, {"items", json::array({item})}};
}

json pod_event_object(const std::string& name, const std::string& phase, const std::string& rv) {
  return {{"metadata", {{"name", name}, {"resourceVersion", rv}}}, {"status", {{"phase", phase}}}};
}

// What --wait=finished does with a job whose object the server lists first: the status lines
// it printed, and the status it returned or the error it ended with.
struct Outcome {
  std::vector<std::string> lines;
  std::optional<JobStatus> status;
  std::optional<ExitCode> error;
  std::string message;
  size_t streams = 0;
};

Outcome wait_finished(const std::string& kind_name, const json& job) {
  // The watch then sends the job succeeded, so that a wait that goes on ends.
  ScriptedClient client([&](const kube::Request&, int) { return ScriptedClient::ok(list_of(job), 200); },
                        [&](const kube::Request&, int) -> std::vector<std::string> {
                          return {watch_event("MODIFIED", status_table::succeeded_job(kind_name, "demo"))};
                        });
  Outcome out;
  submit::WaitOptions o;
  o.sleep = [](std::chrono::milliseconds) {};  // no backoff slept
  o.until_finished = true;
  o.on_status = [&](const std::string& l) { out.lines.push_back(l); };
  try {
    out.status = submit::wait_for_job(client, jobs::kind_named(kind_name), "ns1", "demo", o);
  } catch (const Error& e) {
    out.error = e.code();
    out.message = e.what();
  }
  out.streams = client.streams().size();
  return out;
}

// What --wait (until the pods run) does when a pod ends and the server then answers the job's
// GET with `job`: the job decides whether the wait ends; a second watch then brings the
// second pod up.
Outcome wait_pods_after_pod_ended(const std::string& kind_name, const json& job) {
  const jobs::JobKind& kind = jobs::kind_named(kind_name);
  ScriptedClient client(
      [&](const kube::Request& r, int) {
        if (r.path == kind.resource.object_path("ns1", "demo")) return ScriptedClient::ok(job, 200);
        return ScriptedClient::ok(list_of(pod_event_object("demo-0", "Running", "8")), 200);
      },
      [&](const kube::Request&, int n) -> std::vector<std::string> {
        if (n == 0) return {watch_event("MODIFIED", pod_event_object("demo-1", "Failed", "11"))};
        return {watch_event("MODIFIED", pod_event_object("demo-2", "Running", "12"))};
      });
  Outcome out;
  submit::WaitOptions o;
  o.sleep = [](std::chrono::milliseconds) {};  // no backoff slept
  o.expected_pods = 2;
  o.on_status = [&](const std::string& l) { out.lines.push_back(l); };
  try {
    out.status = submit::wait_for_job(client, kind, "ns1", "demo", o);
  } catch (const Error& e) {
    out.error = e.code();
    out.message = e.what();
  }
  out.streams = client.streams().size();
  return out;
}

}  // namespace

TEST_CASE("--wait=finished: every status-table row fails, ends or goes on as list and get show it",
          "[wait]") {
  for (const auto& row : status_table::rows()) {
    CAPTURE(row.rule, jobs::status_name(row.expected));
    const Outcome out = wait_finished(row.kind, status_table::job_of(row, "demo"));
    if (row.expected == JobStatus::Failed) {
      CHECK(out.error == ExitCode::JobFailed);
      CHECK(out.message == "job demo failed");
      CHECK(out.lines.empty());  // no FAILED status line: the error says it
      CHECK(out.streams == 0);
    } else if (row.expected == JobStatus::Succeeded) {
      CHECK(out.status == JobStatus::Succeeded);
      CHECK(out.lines == std::vector<std::string>{"job demo: SUCCEEDED"});
      CHECK(out.streams == 0);
    } else {
      CHECK(out.status == JobStatus::Succeeded);
      CHECK(out.lines == std::vector<std::string>{"job demo: " + std::string(jobs::status_name(row.expected)),
                                                  "job demo: SUCCEEDED"});
      CHECK(out.streams == 1);
    }
  }
}

TEST_CASE("--wait: when a pod ends, every status-table row of the job fails, ends or goes on", "[wait]") {
  for (const auto& row : status_table::rows()) {
    CAPTURE(row.rule, jobs::status_name(row.expected));
    const Outcome out = wait_pods_after_pod_ended(row.kind, status_table::job_of(row, "demo"));
    if (row.expected == JobStatus::Failed) {
      CHECK(out.error == ExitCode::JobFailed);
      CHECK(out.streams == 1);
    } else if (row.expected == JobStatus::Succeeded) {
      CHECK(out.status == JobStatus::Succeeded);
      CHECK(out.lines.back() == "job demo: SUCCEEDED");
      CHECK(out.streams == 1);
    } else {
      CHECK(out.status == JobStatus::Running);
      CHECK(out.lines.back() == "job demo: 2/2 pods running");
      CHECK(out.streams == 2);
    }
  }
}

TEST_CASE("--wait: an Indexed Job with FailureTarget has failed; a Volcano job Aborting is suspended",
          "[wait]") {
  // Kubernetes 1.31+ writes FailureTarget first and Failed once its pods have gone. Volcano's
  // Aborting goes on to Aborted, which ResumeJob (vcctl job resume) restarts (aborted.go): not
  // finished (state/factory.go), so --wait goes on waiting for it.
  const json failure_target = fixtures::batchjob(
      "demo", status_table::kCreated,
      {{"startTime", status_table::kStarted},
       {"failed", 1},
       {"conditions", json::array({status_table::batch("FailureTarget", "BackoffLimitExceeded")})}});
  const Outcome finished = wait_finished("batchjob", failure_target);
  CHECK(finished.error == ExitCode::JobFailed);
  CHECK(finished.lines.empty());
  const Outcome running = wait_pods_after_pod_ended("batchjob", failure_target);
  CHECK(running.error == ExitCode::JobFailed);
  CHECK(running.message == "job demo failed");
  const json aborting =
      fixtures::volcanojob("demo", status_table::kCreated, status_table::volcano("Aborting"));
  CHECK(jobs::object_status(jobs::kind_named("volcanojob"), aborting) == JobStatus::Suspended);
}
