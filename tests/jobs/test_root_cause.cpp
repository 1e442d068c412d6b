// Root cause of a failed job over hand-written objects. Their shapes follow what the writers
// put there: the kubelet's container statuses (OOMKilled and Error, exit 137, in state or
// lastState after a restart; pkg/kubelet/kuberuntime), the kubelet's eviction (phase Failed,
// reason Evicted, pkg/kubelet/eviction/eviction_manager.go), the scheduler's preemption
// (DisruptionTarget PreemptionByScheduler), training-operator v1.9.0 conditions
// (pkg/controller.v1/common/job.go: "<Kind>Failed" with "...reached the specified backoff
// limit" / "...active longer than specified deadline") and the batch Job's DeadlineExceeded.
#include <catch2/catch.hpp>

#include "jobs/kind.h"
#include "jobs/diagnose/root_cause.h"

using nlohmann::json;
using trainctl::jobs::job_failure_reason;
using trainctl::jobs::kind_named;
using trainctl::jobs::root_cause;

namespace {

json rc_failed_job(const std::string& name, const std::string& reason, const std::string& message) {
  return {{"metadata", {{"name", name}, {"namespace", "default"}}},
          {"status",
           {{"conditions", json::array({{{"type", "Created"}, {"status", "True"}},
                                        {{"type", "Failed"},
                                         {"status", "True"},
                                         {"reason", reason},
                                         {"message", message},
                                         {"lastTransitionTime", "2024-05-01T10:05:00Z"}}})}}}};
}

json rc_terminated(int code, const std::string& reason, const std::string& at) {
  return {{"exitCode", code}, {"reason", reason}, {"startedAt", "2024-05-01T10:00:00Z"}, {"finishedAt", at}};
}

json rc_pod(const std::string& name, const std::string& phase, json statuses) {
  return {{"metadata", {{"name", name}, {"namespace", "default"}}},
          {"status", {{"phase", phase}, {"containerStatuses", std::move(statuses)}}}};
}

json rc_running(const std::string& name, int restarts = 0, json last = json::object()) {
  return {{"name", name},
          {"restartCount", restarts},
          {"state", {{"running", {{"startedAt", "2024-05-01T10:01:00Z"}}}}},
          {"lastState", std::move(last)}};
}

// The DisruptionTarget condition the kubelet (eviction) or the scheduler (preemption) sets.
json rc_disruption(const std::string& reason, const std::string& message, const std::string& at) {
  json c = {{"type", "DisruptionTarget"}, {"status", "True"}, {"reason", reason}, {"lastTransitionTime", at}};
  if (!message.empty()) c["message"] = message;
  return c;
}

const std::string kRcBackoff = "Job train has failed because it has reached the specified backoff limit";

}  // namespace

TEST_CASE(
    "root cause: the first container to fail, from lastState after restarts, by its framework container") {
  const auto& kind = kind_named("pytorchjob");
  const json job = rc_failed_job("train", "PyTorchJobFailed", kRcBackoff);
  // worker-1's pytorch container was OOM-killed twice and runs again (CrashLoopBackOff);
  // its sidecar, listed first, is not the framework container. worker-0 failed later.
  json w1 =
      rc_running("pytorch", 2, {{"terminated", rc_terminated(137, "OOMKilled", "2024-05-01T10:03:00Z")}});
  w1["state"] = {{"waiting", {{"reason", "CrashLoopBackOff"}}}};
  const std::vector<json> pods = {
      rc_pod("train-master-0", "Running", json::array({rc_running("pytorch")})),
      rc_pod("train-worker-0", "Running",
             json::array({rc_running("pytorch", 1,
                                     {{"terminated", rc_terminated(1, "Error", "2024-05-01T10:04:00Z")}})})),
      rc_pod("train-worker-1", "Running", json::array({rc_running("sidecar"), w1})),
  };
  const auto f = root_cause(kind, job, pods);
  REQUIRE(f);
  CHECK(f->replica == "worker-1");
  CHECK(f->pod == "train-worker-1");
  CHECK(f->container == "pytorch");
  CHECK(f->exit_code == 137);
  CHECK(f->reason == "OOMKilled");
  CHECK(f->restarts == 2);
  CHECK_FALSE(f->previous);  // waiting to restart: the current log is the OOM-killed container's
  CHECK(f->finished_at == "2024-05-01T10:03:00Z");
  CHECK(f->message == kRcBackoff);  // the container has no message: the job's says why it stopped
}

TEST_CASE("root cause: a container that runs again after its failure: its log is the previous one") {
  const auto f = root_cause(
      kind_named("pytorchjob"), rc_failed_job("r", "PyTorchJobFailed", kRcBackoff),
      {rc_pod("r-worker-0", "Running",
              json::array({rc_running(
                  "pytorch", 1, {{"terminated", rc_terminated(1, "Error", "2024-05-01T10:01:00Z")}})}))});
  REQUIRE(f);
  CHECK(f->previous);
  CHECK(f->restarts == 1);
}

TEST_CASE("root cause: a terminated container wins over lastState; ties by pod name; exit 0 is no failure") {
  const auto& kind = kind_named("pytorchjob");
  const json job = rc_failed_job("t", "PyTorchJobFailed",
                                 "PyTorchJob default/t has failed because 2 Worker replica(s) failed.");
  const std::string at = "2024-05-01T10:02:00Z";
  json done = rc_running("pytorch");
  done["state"] = {{"terminated", rc_terminated(0, "Completed", "2024-05-01T10:00:30Z")}};
  json b = rc_running("pytorch");
  b["state"] = {{"terminated", rc_terminated(1, "Error", at)}};
  json a = b;
  const auto f = root_cause(
      kind, job,
      {rc_pod("t-master-0", "Succeeded", json::array({done})),
       rc_pod("t-worker-1", "Failed", json::array({b})), rc_pod("t-worker-0", "Failed", json::array({a}))});
  REQUIRE(f);
  CHECK(f->pod == "t-worker-0");
  CHECK(f->exit_code == 1);
  CHECK(f->reason == "Error");
  CHECK_FALSE(f->previous);
  CHECK(f->restarts == 0);
}

TEST_CASE("root cause: an evicted pod is named by its status.reason, with the kubelet's message") {
  const auto& kind = kind_named("pytorchjob");
  const std::string msg =
      "The node was low on resource: memory. Threshold quantity: 100Mi, available: 92Mi. Container pytorch "
      "was "
      "using 30Gi, request is 0, has larger consumption of memory. ";
  json c = rc_running("pytorch");
  c["state"] = {{"terminated", rc_terminated(137, "Error", "2024-05-01T10:02:00Z")}};
  json p = rc_pod("e-master-0", "Failed", json::array({c}));
  p["status"]["reason"] = "Evicted";
  p["status"]["message"] = msg;
  const auto f =
      root_cause(kind, rc_failed_job("e", "PyTorchJobFailed", "PyTorchJob default/e has failed"), {p});
  REQUIRE(f);
  CHECK(f->reason == "Evicted");
  CHECK(f->message == msg);
  CHECK(f->exit_code == 137);
  CHECK(f->replica == "master-0");
}

TEST_CASE("root cause: an evicted pod whose container the kubelet could no longer locate") {
  // The other shape evictions take on real clusters: the container was removed before its
  // exit was read, so the kubelet reports ContainerStatusUnknown, exit 137, no times
  // (pkg/kubelet/kubelet_pods.go; kubernetes/kubernetes#122160). The time comes from the
  // DisruptionTarget condition the kubelet sets on eviction.
  json c = rc_running("pytorch", 1);
  c["state"] = {{"terminated",
                 {{"exitCode", 137},
                  {"reason", "ContainerStatusUnknown"},
                  {"message", "The container could not be located when the pod was terminated"},
                  {"startedAt", nullptr},
                  {"finishedAt", nullptr}}}};
  json p = rc_pod("u-worker-0", "Failed", json::array({c}));
  p["status"]["reason"] = "Evicted";
  p["status"]["message"] = "The node was low on resource: ephemeral-storage. Threshold quantity: 1Gi, available: 0. ";
  p["status"]["conditions"] = json::array({rc_disruption("TerminationByKubelet", "", "2024-05-01T10:02:30Z")});
  const auto f = root_cause(kind_named("pytorchjob"), rc_failed_job("u", "PyTorchJobFailed", "x"), {p});
  REQUIRE(f);
  CHECK(f->reason == "Evicted");
  CHECK(f->message.rfind("The node was low on resource: ephemeral-storage.", 0) == 0);
  CHECK(f->exit_code == 137);
  CHECK(f->finished_at == "2024-05-01T10:02:30Z");
  CHECK(f->replica == "worker-0");
}

TEST_CASE("root cause: preemption, read from the DisruptionTarget condition") {
  json p = rc_pod("p-worker-0", "Running", json::array({rc_running("pytorch")}));
  p["status"]["conditions"] = json::array({rc_disruption(
      "PreemptionByScheduler", "default-scheduler: preempting to accommodate a higher priority pod",
      "2024-05-01T10:01:00Z")});
  const auto f = root_cause(kind_named("pytorchjob"), rc_failed_job("p", "PyTorchJobFailed", "x"), {p});
  REQUIRE(f);
  CHECK(f->reason == "Preempted");
  CHECK(f->finished_at == "2024-05-01T10:01:00Z");
  CHECK_FALSE(f->exit_code);
}

TEST_CASE("root cause: an MPIJob launcher's first container; no framework name for mpi-operator") {
  json c = rc_running("mpi-launcher");
  c["state"] = {{"terminated", rc_terminated(1, "Error", "2024-05-01T10:02:00Z")}};
  const auto f = root_cause(
      kind_named("mpijob"),
      rc_failed_job("m", "BackoffLimitExceeded/Error", "Job has reached the specified backoff limit"),
      {rc_pod("m-launcher-x7k2p", "Failed", json::array({c})),
       rc_pod("m-worker-0", "Running", json::array({rc_running("mpi-worker")}))});
  REQUIRE(f);
  CHECK(f->replica == "launcher-x7k2p");  // no labels here: the pod name after "JOB-"
  CHECK(f->container == "mpi-launcher");
  CHECK(f->exit_code == 1);
}

TEST_CASE("root cause: without a pod that tells, the job's Failed condition") {
  const auto& kind = kind_named("pytorchjob");
  const auto deadline =
      root_cause(kind,
                 rc_failed_job("d", "PyTorchJobFailed",
                               "Job d has failed because it was active longer than specified deadline"),
                 {rc_pod("d-worker-0", "Running", json::array({rc_running("pytorch")}))});
  REQUIRE(deadline);
  CHECK(deadline->reason == "DeadlineExceeded");
  CHECK(deadline->pod.empty());
  CHECK(deadline->replica.empty());
  CHECK(deadline->finished_at == "2024-05-01T10:05:00Z");
  const auto backoff = root_cause(kind, rc_failed_job("b", "PyTorchJobFailed", kRcBackoff), {});
  REQUIRE(backoff);
  CHECK(backoff->reason == "BackoffLimitExceeded");
  CHECK(job_failure_reason({"DeadlineExceeded", "Job was active longer than specified deadline", ""}) ==
        "DeadlineExceeded");
  CHECK(job_failure_reason({"BackoffLimitExceeded/Error", "x", ""}) == "BackoffLimitExceeded");
}

TEST_CASE("root cause: none for a job that has not failed and has no failed pod") {
  json job = {{"metadata", {{"name", "ok"}}},
              {"status", {{"conditions", json::array({{{"type", "Running"}, {"status", "True"}}})}}}};
  CHECK_FALSE(root_cause(kind_named("pytorchjob"), job,
                         {rc_pod("ok-master-0", "Running", json::array({rc_running("pytorch")}))}));
  // Volcano: status.state.phase Failed
  json vj = {{"metadata", {{"name", "v"}}}, {"status", {{"state", {{"phase", "Failed"}, {"reason", ""}}}}}};
  const auto f = root_cause(kind_named("volcanojob"), vj, {});
  REQUIRE(f);
  CHECK(f->reason == "Failed");
}
