// Every status rule of every job kind, one row a rule: the status fields an operator really
// writes (each row names the upstream code that writes them) and the status trainctl shows.
// One table drives the jobs library's rule (jobs_tests), list's and get's STATUS column
// (cmd_tests) and submit --wait's reading (submit_tests), so the three cannot disagree.
#pragma once

#include <string>
#include <tuple>
#include <vector>

#include "job_fixtures.h"
#include "jobs/job_status.h"
#include "jobs/kind.h"

namespace status_table {

using fixtures::condition;
using nlohmann::json;
using trainctl::jobs::JobStatus;

inline constexpr const char* kCreated = "2024-05-01T09:50:00Z";
inline constexpr const char* kStarted = "2024-05-01T09:51:00Z";
inline constexpr const char* kEnded = "2024-05-01T09:56:00Z";

struct Row {
  std::string kind;  // JobKind::name
  std::string rule;  // what the operator wrote, and where (upstream file at its tag)
  json status;       // the object's status (Volcano: status.state)
  JobStatus expected;
  bool deleting = false;         // metadata.deletionTimestamp set
  std::string kueue_queue = "";  // metadata.labels kueue.x-k8s.io/queue-name
};

// The job object of a row, named `name` in namespace default.
inline json job_of(const Row& r, const std::string& name) {
  json j;
  if (r.kind == "pytorchjob")
    j = fixtures::pytorchjob(name, kCreated, 2, 1, r.status);
  else if (r.kind == "mpijob")
    j = fixtures::mpijob(name, kCreated, 2, 1, r.status);
  else if (r.kind == "volcanojob")
    j = fixtures::volcanojob(name, kCreated, r.status);
  else if (r.kind == "batchjob")
    j = fixtures::batchjob(name, kCreated, r.status);
  else if (r.kind == "tfjob")
    j = fixtures::tfjob(name, kCreated, 1, 2, 1, false, r.status);
  else if (r.kind == "trainjob")
    j = fixtures::trainjob(name, kCreated, "torch-distributed", 2, 1, r.status);
  if (!r.kueue_queue.empty()) j["metadata"]["labels"]["kueue.x-k8s.io/queue-name"] = r.kueue_queue;
  if (r.deleting) {
    j["metadata"]["deletionTimestamp"] = "2024-05-01T09:59:00Z";
    j["metadata"]["finalizers"] = json::array({"foregroundDeletion"});
  }
  return j;
}

// A kubeflow.org JobCondition as training-operator and mpi-operator write it.
inline json kf(const std::string& type, const std::string& status, const std::string& reason) {
  return condition(type, status, kStarted, reason);
}

// A batch/v1 JobCondition as the job controller writes it.
inline json batch(const std::string& type, const std::string& reason = "") {
  json c = {{"type", type}, {"status", "True"}, {"lastProbeTime", kEnded}, {"lastTransitionTime", kEnded}};
  if (!reason.empty()) c["reason"] = reason;
  return c;
}

template <class... C>
json conds(const C&... c) {
  json a = json::array();
  (a.push_back(c), ...);
  return a;
}

// A status with startTime (and completionTime: ended) and these conditions.
template <class... C>
json started(const C&... c) {
  return {{"startTime", kStarted}, {"conditions", conds(c...)}};
}
template <class... C>
json ended(const C&... c) {
  return {{"startTime", kStarted}, {"completionTime", kEnded}, {"conditions", conds(c...)}};
}
template <class... C>
json only(const C&... c) {
  return {{"conditions", conds(c...)}};
}

// `status` with more fields.
inline json with(json status, const json& more) {
  status.update(more);
  return status;
}

inline json volcano(const std::string& phase) { return {{"phase", phase}, {"lastTransitionTime", kEnded}}; }

// The conditions both kubeflow.org operators write alike: training-operator v1.9.0
// (pkg/util/status.go setCondition, filterOutCondition; pytorch/pytorchjob_controller.go and
// tensorflow/tfjob_controller.go UpdateJobStatus; common/job.go ReconcileJobs for suspension)
// and mpi-operator v0.8.0 (pkg/controller/mpi_job_controller.go updateMPIJobStatus;
// mpi_job_controller_status.go, the same setCondition and filterOutCondition). `kind`
// prefixes the reasons (PyTorchJob, TFJob, MPIJob); `failed` is the Failed condition's reason.
inline void add_kubeflow_rows(std::vector<Row>& t, const std::string& kind_name, const std::string& source,
                              const std::string& kind, const std::string& failed) {
  using S = JobStatus;
  const json created = kf("Created", "True", kind + "Created");
  const json running = kf("Running", "True", kind + "Running");
  const json not_running = kf("Running", "False", kind + "Running");
  const json succeeded = kf("Succeeded", "True", kind + "Succeeded");
  t.push_back({kind_name, source + "Created on create / first sync", only(created), S::Pending});
  t.push_back({kind_name, source + "Running", started(created, running), S::Running});
  t.push_back({kind_name, source + "Succeeded sets Running False", ended(created, not_running, succeeded),
               S::Succeeded});
  t.push_back({kind_name, source + "Failed sets Running False",
               ended(created, not_running, kf("Failed", "True", failed)), S::Failed});
  t.push_back(
      {kind_name, source + "Suspended, Running False",
       only(created, kf("Running", "False", kind + "Suspended"), kf("Suspended", "True", kind + "Suspended")),
       S::Suspended});
  t.push_back({kind_name, "kueue v0.19.2 jobframework: in a Kueue queue, suspended until admitted",
               only(created, kf("Suspended", "True", kind + "Suspended")), S::Pending, false, "team-a"});
  t.push_back({kind_name, source + "Running, being deleted: kubectl printJob's Terminating",
               started(created, running), S::Terminating, true});
  t.push_back({kind_name, source + "Succeeded, being deleted: still SUCCEEDED", ended(created, succeeded),
               S::Succeeded, true});
}

// A metav1.Condition as Kubeflow Trainer writes TrainJob's (no lastUpdateTime).
inline json meta(const std::string& type, const std::string& status, const std::string& reason,
                 const std::string& message) {
  return {{"type", type},
          {"status", status},
          {"lastTransitionTime", kEnded},
          {"reason", reason},
          {"message", message}};
}

// status.jobsStatus entry (kubeflow/trainer@v2.3.0 trainjob_types.go JobStatus, copied from the
// JobSet's replicatedJobsStatus by plugins/jobset/jobset.go Status).
inline json rjob(const std::string& name, int ready, int succeeded, int failed, int active, int suspended) {
  return {{"name", name},     {"ready", ready},   {"succeeded", succeeded},
          {"failed", failed}, {"active", active}, {"suspended", suspended}};
}

// TrainJob: kubeflow/trainer@v2.3.0 pkg/controller/trainjob_controller.go (setSuspendedCondition,
// reconcileDeadline), plugins/jobset/jobset.go Status (the JobSet's Completed/Failed renamed
// Complete/Failed, reasons and messages as JobSet wrote them); shapes as its
// test/integration/controller/trainjob_controller_test.go expects them.
inline void add_trainjob_rows(std::vector<Row>& t) {
  using S = JobStatus;
  const std::string tj = "trainjob";
  const std::string up = "trainer v2.3.0 ";
  const json resumed = meta("Suspended", "False", "Resumed", "TrainJob is resumed");
  const json suspended = meta("Suspended", "True", "Suspended", "TrainJob is suspended");
  const json complete = meta("Complete", "True", "AllJobsCompleted", "jobset completed successfully");
  const json failed = meta("Failed", "True", "FailedJobs",
                           "jobset failed due to one or more job failures (first failed job: demo-node-0)");
  const json init_done = rjob("dataset-initializer", 0, 1, 0, 0, 0);
  t.push_back({tj, "no status before the first reconcile", json::object(), S::Pending});
  t.push_back({tj,
               up + "JobSet made, no Job active yet",
               {{"jobsStatus", json::array({rjob("node", 0, 0, 0, 0, 0)})}},
               S::Pending});
  t.push_back({tj,
               up + "spec.suspend: Suspended True",
               {{"conditions", conds(suspended)}, {"jobsStatus", json::array({rjob("node", 0, 0, 0, 0, 1)})}},
               S::Suspended});
  t.push_back({tj,
               "kueue v0.19.2 jobframework: in a Kueue queue, suspended until admitted",
               {{"conditions", conds(suspended)}, {"jobsStatus", json::array({rjob("node", 0, 0, 0, 0, 1)})}},
               S::Pending,
               false,
               "team-a"});
  t.push_back({tj,
               up + "node Job active, never suspended: no condition at all",
               {{"jobsStatus", json::array({rjob("node", 0, 0, 0, 1, 0)})}},
               S::Running});
  t.push_back({tj,
               up + "resumed, initializer done, node ready",
               {{"conditions", conds(resumed)},
                {"jobsStatus", json::array({init_done, rjob("node", 1, 0, 0, 1, 0)})}},
               S::Running});
  t.push_back({tj,
               up + "Complete (JobSet AllJobsCompleted)",
               {{"conditions", conds(resumed, complete)},
                {"jobsStatus", json::array({init_done, rjob("node", 0, 1, 0, 0, 0)})}},
               S::Succeeded});
  t.push_back({tj,
               up + "Failed (JobSet FailedJobs)",
               {{"conditions", conds(resumed, failed)},
                {"jobsStatus", json::array({init_done, rjob("node", 0, 0, 1, 0, 0)})}},
               S::Failed});
  t.push_back({tj,
               up + "Failed DeadlineExceeded (reconcileDeadline), the JobSet deleted",
               {{"conditions",
                 conds(meta("Failed", "True", "DeadlineExceeded", "TrainJob exceeded its active deadline"))},
                {"jobsStatus", json::array({rjob("node", 0, 0, 0, 1, 0)})}},
               S::Failed});
  t.push_back({tj,
               up + "node Job active, being deleted",
               {{"jobsStatus", json::array({rjob("node", 1, 0, 0, 1, 0)})}},
               S::Terminating,
               true});
  t.push_back({tj,
               up + "Complete, being deleted: still SUCCEEDED",
               {{"conditions", conds(complete)}},
               S::Succeeded,
               true});
}

inline std::vector<Row> make_rows() {
  using S = JobStatus;
  std::vector<Row> t;
  // PyTorchJob: training-operator v1.9.0 (pkg/apis/kubeflow.org/v1/common_types.go); Arena's
  // order of the conditions: pkg/training/trainer_tensorflow.go getStatus.
  const std::string to = "training-operator v1.9.0 ";
  add_kubeflow_rows(t, "pytorchjob", to, "PyTorchJob", "PyTorchJobFailed");
  const json created = kf("Created", "True", "PyTorchJobCreated");
  t.push_back({"pytorchjob", "no status before the first reconcile", json::object(), S::Pending});
  t.push_back({"pytorchjob", to + "Restarting replaces Running (filterOutCondition): PENDING until it runs",
               started(created, kf("Restarting", "True", "PyTorchJobRestarting")), S::Pending});
  t.push_back({"pytorchjob", to + "resumed: Suspended False, then Running",
               started(created, kf("Suspended", "False", "PyTorchJobResumed"),
                       kf("Running", "True", "PyTorchJobRunning")),
               S::Running});
  t.push_back({"pytorchjob", "Queuing: only Arena's vendored operator fork (pkg/operators/tf-operator)",
               only(created, kf("Queuing", "True", "JobQueuing")), S::Queuing});
  t.push_back({"pytorchjob", "Succeeded before Failed in Arena's getStatus order",
               only(kf("Failed", "True", "PyTorchJobFailed"), kf("Succeeded", "True", "PyTorchJobSucceeded")),
               S::Succeeded});

  // MPIJob: mpi-operator v0.8.0; Succeeded and Failed follow the launcher Job
  // (updateMPIJobFailedStatus copies its reason); v1alpha1's launcherStatus (mpi-operator
  // v0.2.3 pkg/apis/kubeflow/v1alpha1/types.go), which Arena reads (trainer_mpi.go).
  const std::string mpi = "mpi-operator v0.8.0 ";
  add_kubeflow_rows(t, "mpijob", mpi, "MPIJob", "BackoffLimitExceeded/Error");
  t.push_back({"mpijob", mpi + "Failed: a worker was evicted",
               started(kf("Created", "True", "MPIJobCreated"), kf("Failed", "True", "MPIJobEvicted")),
               S::Failed});
  t.push_back(
      {"mpijob", "launcherStatus Succeeded (v1alpha1)", {{"launcherStatus", "Succeeded"}}, S::Succeeded});
  t.push_back({"mpijob", "launcherStatus Failed (v1alpha1)", {{"launcherStatus", "Failed"}}, S::Failed});

  // TFJob: training-operator v1.9.0 pkg/controller.v1/tensorflow/tfjob_controller.go
  // UpdateJobStatus (Running, Succeeded, Restarting, Failed; completionTime with Succeeded and
  // Failed), the same pkg/util/status.go and common/job.go; Arena's trainer_tensorflow.go
  // getStatus.
  const std::string tf = to + "tfjob_controller.go ";
  add_kubeflow_rows(t, "tfjob", tf, "TFJob", "TFJobFailed");
  const json tf_created = kf("Created", "True", "TFJobCreated");
  t.push_back({"tfjob", "no status before the first reconcile", json::object(), S::Pending});
  t.push_back({"tfjob", tf + "Restarting kept while a failed replica restarts: PENDING until it runs",
               started(tf_created, kf("Restarting", "True", "TFJobRestarting")), S::Pending});

  // Volcano: staging/src/volcano.sh/apis/pkg/apis/batch/v1alpha1/job.go (JobPhase) and the
  // job controller's states, pkg/controllers/job/state/*.go (v1.10.0).
  const std::string vc = "volcano v1.10.0 ";
  const std::vector<std::tuple<std::string, std::string, S>> phases = {
      {"Pending", "pending.go", S::Pending},
      {"Running", "pending.go: minAvailable pods run", S::Running},
      {"Restarting", "pods killed to be made again, next Pending (restarting.go)", S::Pending},
      {"Completing", "the rest being killed, next Completed (completing.go)", S::Running},
      {"Completed", "running.go, completing.go", S::Succeeded},
      {"Failed", "retries exhausted (restarting.go)", S::Failed},
      {"Aborting", "AbortJob (vcctl job suspend), next Aborted (aborting.go)", S::Suspended},
      {"Aborted", "aborting.go; ResumeJob restarts it (aborted.go)", S::Suspended},
      {"Terminating", "terminated, next Terminated (terminating.go)", S::Failed},
      {"Terminated", "terminating.go", S::Failed},
  };
  for (const auto& [phase, why, status] : phases)
    t.push_back({"volcanojob", vc + phase + ": " + why, volcano(phase), status});
  t.push_back({"volcanojob", "no status.state yet", nullptr, S::Pending});
  t.push_back({"volcanojob", "a phase v1alpha1 does not define (Arena's fork: Inqueue)", volcano("Inqueue"),
               S::Unknown});
  t.push_back({"volcanojob", vc + "Running, being deleted", volcano("Running"), S::Terminating, true});

  // Indexed batch/v1 Job: k8s.io/api batch/v1 types.go (JobConditionType); kubernetes
  // pkg/controller/job/job_controller.go (newSuccessCondition, newFailureCondition,
  // delayTerminalCondition, enactJobFinished; 1.31+ for the interim conditions).
  const std::string k8s = "kubernetes job_controller.go ";
  const std::string b = "batchjob";
  t.push_back({b, "no status before the first sync", json::object(), S::Pending});
  t.push_back({b, k8s + "active pods", {{"startTime", kStarted}, {"active", 2}}, S::Running});
  t.push_back({b, k8s + "Suspended: no active pods", only(batch("Suspended", "JobSuspended")), S::Suspended});
  t.push_back({b, "kueue v0.19.2 jobframework: in a Kueue queue, suspended until admitted",
               only(batch("Suspended", "JobSuspended")), S::Pending, false, "team-a"});
  // Success and failure go the same way: the terminal condition alone (before 1.31); from 1.31
  // the interim one while pods still terminate, then both. completionTime comes with Complete.
  struct End {
    std::string interim, terminal, reason, count;
    S status;
  };
  for (const End& e : {End{"SuccessCriteriaMet", "Complete", "CompletionsReached", "succeeded", S::Succeeded},
                       End{"FailureTarget", "Failed", "BackoffLimitExceeded", "failed", S::Failed}}) {
    json done = {{e.count, 2}};
    if (e.status == S::Succeeded) done["completionTime"] = kEnded;
    t.push_back({b, k8s + e.terminal + " (before 1.31 the only one)",
                 with(started(batch(e.terminal, e.reason)), done), e.status});
    t.push_back({b, k8s + "1.31+: " + e.interim + " while pods still terminate",
                 with(started(batch(e.interim, e.reason)), {{e.count, 1}, {"terminating", 1}}), e.status});
    t.push_back({b, k8s + "1.31+: " + e.interim + ", then " + e.terminal,
                 with(started(batch(e.interim, e.reason), batch(e.terminal, e.reason)), done), e.status});
  }
  add_trainjob_rows(t);
  t.push_back({b,
               k8s + "active pods, being deleted",
               {{"startTime", kStarted}, {"active", 2}},
               S::Terminating,
               true});
  return t;
}

inline const std::vector<Row>& rows() {
  static const std::vector<Row> table = make_rows();
  return table;
}

// A job of the row's kind that has succeeded, for tests that need the job to end afterwards.
inline json succeeded_job(const std::string& kind, const std::string& name) {
  for (const auto& r : rows())
    if (r.kind == kind && r.expected == JobStatus::Succeeded && !r.deleting) return job_of(r, name);
  return json();
}

}  // namespace status_table
