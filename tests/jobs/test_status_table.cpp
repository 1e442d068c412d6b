// The status rules of every kind (status_table.h) through the jobs library: the one rule a
// job object's status comes from, and the TrainingJob list and get print.
#include <catch2/catch.hpp>

#include "jobs/build_job.h"
#include "jobs/job_summary.h"
#include "jobs/diagnose/root_cause.h"
#include "jobs/status_rules.h"
#include "status_table.h"

using namespace trainctl::jobs;
using nlohmann::json;

TEST_CASE("status table: each kind's rule gives the row's status, alone and in the job list and get show") {
  for (const auto& row : status_table::rows()) {
    CAPTURE(row.rule, status_name(row.expected));
    const JobKind& kind = kind_named(row.kind);
    const json job = status_table::job_of(row, "demo");
    CHECK(object_status(kind, job) == row.expected);
    const TrainingJob t = build_job(kind, job, {}, fixtures::now());
    CHECK(t.status == row.expected);
    CHECK(t.to_json()["status"] == status_name(row.expected));
  }
}

TEST_CASE("status table: every FAILED row has a reason, and the root cause without pods gives it") {
  // Volcano's Aborted and Terminated jobs used to show FAILED with no reason and no root cause:
  // the summary read the Failed phase only, the root cause Failed and Aborted.
  for (const auto& row : status_table::rows()) {
    const JobKind& kind = kind_named(row.kind);
    const json job = status_table::job_of(row, "demo");
    CAPTURE(row.rule, status_name(row.expected));
    const TrainingJob t = build_job(kind, job, {}, fixtures::now());
    const auto cause = root_cause(kind, job, {});
    if (row.expected == JobStatus::Failed) {
      CHECK_FALSE(t.reason.empty());
      CHECK(cause);
      if (!cause) continue;
      CHECK_FALSE(cause->reason.empty());
      // Volcano's controller writes no reason or message: the phase's meaning stands in.
      if (row.kind == "volcanojob") CHECK_FALSE(cause->message.empty());
    } else if (row.expected != JobStatus::Terminating) {
      CHECK(t.reason.empty());
      CHECK_FALSE(cause);
    }
  }
}

TEST_CASE("status table: each kind's failure rule is set exactly when its status rule says FAILED") {
  for (const auto& row : status_table::rows()) {
    const JobKind& kind = kind_named(row.kind);
    const json job = status_table::job_of(row, "demo");
    CAPTURE(row.rule, status_name(row.expected));
    const bool failed = kind.status_rules->status(job) == JobStatus::Failed;
    const auto failure = kind.status_rules->failure(job);
    CHECK(failure.has_value() == failed);
    CHECK(object_failure(kind, job).has_value() == failed);
    if (!failure) continue;
    CHECK(summarize_job(kind, job).failed_reason == failure->reason);
    const auto cause = root_cause(kind, job, {});
    REQUIRE(cause);
    CHECK(cause->reason == job_failure_reason(*failure));
    CHECK(cause->message == failure->message);
    CHECK(cause->finished_at == failure->since);
  }
}

TEST_CASE("status table: every kind has rows for each status it can show") {
  using S = JobStatus;
  const std::vector<std::pair<std::string, std::vector<S>>> wanted = {
      {"pytorchjob", {S::Pending, S::Queuing, S::Running, S::Succeeded, S::Failed, S::Terminating}},
      {"mpijob", {S::Pending, S::Running, S::Succeeded, S::Failed, S::Terminating}},
      {"volcanojob", {S::Pending, S::Running, S::Succeeded, S::Failed, S::Terminating, S::Unknown}},
      {"batchjob", {S::Pending, S::Running, S::Succeeded, S::Failed, S::Terminating}},
      {"trainjob", {S::Pending, S::Running, S::Succeeded, S::Failed, S::Terminating}},
  };
  for (const auto& [kind, statuses] : wanted)
    for (S s : statuses) {
      CAPTURE(kind_named(kind).resource.display(), status_name(s));
      bool found = false;
      for (const auto& row : status_table::rows()) found = found || (row.kind == kind && row.expected == s);
      CHECK(found);
    }
}

TEST_CASE("status names are Arena's, TERMINATING kubectl's; only SUCCEEDED and FAILED are finished") {
  using S = JobStatus;
  CHECK(std::string(status_name(S::Pending)) == "PENDING");
  CHECK(std::string(status_name(S::Queuing)) == "QUEUING");
  CHECK(std::string(status_name(S::Running)) == "RUNNING");
  CHECK(std::string(status_name(S::Succeeded)) == "SUCCEEDED");
  CHECK(std::string(status_name(S::Failed)) == "FAILED");
  CHECK(std::string(status_name(S::Terminating)) == "TERMINATING");
  CHECK(std::string(status_name(S::Unknown)) == "UNKNOWN");
  for (S s : {S::Pending, S::Queuing, S::Running, S::Terminating, S::Unknown}) CHECK_FALSE(is_finished(s));
  CHECK(is_finished(S::Succeeded));
  CHECK(is_finished(S::Failed));
}

namespace {

// A job's times: hh:mm:ss on 2024-05-01, "" for none.
struct DurationRow {
  std::string kind;
  std::string rule;
  std::string start, completion;  // status.startTime, status.completionTime
  std::string what, at;           // a true condition and its transition; Volcano: the phase and
                                  // status.state.lastTransitionTime
  long long seconds;              // created 09:50:00, now 10:00:00
  bool failed_chief = false;      // a Failed master pod whose Ready moved at 09:58:00
};

std::string at_(const std::string& hhmmss) { return hhmmss.empty() ? "" : "2024-05-01T" + hhmmss + "Z"; }

json status_of(const DurationRow& r) {
  if (r.kind == "volcanojob") return {{"phase", r.what}, {"lastTransitionTime", at_(r.at)}};
  json s = json::object();
  if (!r.start.empty()) s["startTime"] = at_(r.start);
  if (!r.completion.empty()) s["completionTime"] = at_(r.completion);
  if (!r.what.empty())
    s["conditions"] = json::array({fixtures::condition(r.what, "True", at_(r.at), r.what)});
  return s;
}

}  // namespace

TEST_CASE("duration table: each kind's rule for how long a job ran") {
  // Arena: pkg/training/trainer_pytorch.go and trainer_mpi.go Duration. Volcano and the Indexed
  // Job as status_volcano_job.cpp and status_indexed_job.cpp say.
  const std::vector<DurationRow> rows = {
      {"pytorchjob", "no startTime: 0", "", "", "Created", "09:50:00", 0},
      {"pytorchjob", "running: now - startTime", "09:51:00", "", "Running", "09:51:00", 540},
      {"pytorchjob", "completionTime - startTime", "09:51:00", "09:56:00", "Succeeded", "09:56:00", 300},
      {"pytorchjob", "failed, no completionTime: the Failed transition - creation", "09:51:00", "", "Failed",
       "09:57:00", 420},
      {"pytorchjob", "failed, no completionTime: the chief's latest transition - creation", "09:51:00", "",
       "Failed", "09:57:00", 480, true},
      {"mpijob", "not finished: now - creation", "09:51:00", "", "Running", "09:52:00", 600},
      {"mpijob", "completionTime - creation", "09:51:00", "09:56:00", "Succeeded", "09:56:00", 360},
      {"mpijob", "failed, no completionTime: the Failed transition - creation", "", "", "Failed", "09:54:00",
       240},
      {"volcanojob", "running: now - creation", "", "", "Running", "09:55:00", 600},
      {"volcanojob", "restarting: now - creation", "", "", "Restarting", "09:55:00", 600},
      {"volcanojob", "completed: state.lastTransitionTime - creation", "", "", "Completed", "09:55:00", 300},
      {"volcanojob", "terminating: state.lastTransitionTime - creation", "", "", "Terminating", "09:57:00",
       420},
      {"volcanojob", "aborting (suspended, not finished): now - creation", "", "", "Aborting", "09:57:00",
       600},
      {"batchjob", "no startTime: 0", "", "", "", "", 0},
      {"batchjob", "not finished: now - startTime", "09:52:00", "", "", "", 480},
      {"batchjob", "Complete: completionTime - startTime", "09:52:00", "09:53:00", "Complete", "09:53:00",
       60},
      {"batchjob", "Failed: its transition - startTime", "09:52:00", "", "Failed", "09:54:00", 120},
      {"batchjob", "FailureTarget only (1.31+): its transition - startTime", "09:52:00", "", "FailureTarget",
       "09:54:00", 120},
      {"batchjob", "SuccessCriteriaMet only (1.31+, no completionTime yet): its transition - start",
       "09:52:00", "", "SuccessCriteriaMet", "09:55:00", 180},
      // TrainJob has no startTime or completionTime (kinds/trainjob.cpp).
      {"trainjob", "not finished: now - creation", "", "", "", "", 600},
      {"trainjob", "Complete: its transition - creation", "", "", "Complete", "09:56:00", 360},
      {"trainjob", "Failed: its transition - creation", "", "", "Failed", "09:54:00", 240},
  };
  const json failed_master =
      fixtures::pod("demo-master-0", fixtures::pytorch_labels("demo", "master", 0), "Failed", 1, "node-1");
  for (const auto& row : rows) {
    CAPTURE(kind_named(row.kind).resource.display(), row.rule);
    const status_table::Row r{row.kind, row.rule, status_of(row), JobStatus::Unknown};
    const PodRefs pods = row.failed_chief ? PodRefs{&failed_master} : PodRefs{};
    const TrainingJob t =
        build_job(kind_named(row.kind), status_table::job_of(r, "demo"), pods, fixtures::now());
    CHECK(t.duration.count() == row.seconds);
    if (t.finished()) CHECK(t.ended == t.created + t.duration);
  }
}
