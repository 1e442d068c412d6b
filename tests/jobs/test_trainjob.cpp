// TrainJob (kinds/trainjob.cpp): its pods as JobSet v0.12.0 and the Job controller label them,
// ranks and chief, requested GPUs, progress from status.trainerStatus, and the failure a
// failed node names. Status rows: status_table.h add_trainjob_rows.
#include <catch2/catch.hpp>

#include "jobs/build_job.h"
#include "jobs/job_fixtures.h"
#include "jobs/job_summary.h"
#include "jobs/kind.h"
#include "jobs/replica.h"
#include "jobs/diagnose/root_cause.h"

using namespace trainctl::jobs;
using nlohmann::json;

namespace {

const JobKind& tj() { return kind_named("trainjob"); }

// A pod of replicated job `rjob`, completion index `index`, named as the Job controller names
// it: <job>-<rjob>-0-<index>-<random> (its Job <job>-<rjob>-0, jobset_controller.go GenJobName).
json tj_pod(const std::string& job, const std::string& rjob, int index, const std::string& phase,
            const std::string& node = "node-1") {
  json p = fixtures::pod(job + "-" + rjob + "-0-" + std::to_string(index) + "-x7k2p",
                         fixtures::trainjob_labels(job, rjob, index), phase, 1, node);
  p["spec"]["containers"][0]["name"] = "node";
  if (p["status"].contains("containerStatuses")) p["status"]["containerStatuses"][0]["name"] = "node";
  return p;
}

json running_status() {
  return {{"jobsStatus", json::array({{{"name", "node"},
                                       {"ready", 1},
                                       {"succeeded", 0},
                                       {"failed", 0},
                                       {"active", 1},
                                       {"suspended", 0}}})}};
}

}  // namespace

TEST_CASE("TrainJob: the trainjob type, tj, and its resource") {
  CHECK(kind_for_type("trainjob").name == "trainjob");
  CHECK(kind_for_type("TJ").name == "trainjob");
  CHECK(tj().resource.api_version() == "trainer.kubeflow.org/v1alpha1");
  CHECK(tj().resource.plural == "trainjobs");
  CHECK(tj().trainer_name == "TRAINJOB");
  CHECK(tj().pod_selector("mnist") == "jobset.sigs.k8s.io/jobset-name=mnist");
}

TEST_CASE("TrainJob: replicas are the replicated job and the completion index") {
  auto n1 = replica_of(tj(), "mnist", tj_pod("mnist", "node", 1, "Running"));
  CHECK(n1.role == "node");
  CHECK(n1.rank == 1);
  CHECK(n1.label == "node-1");
  CHECK(replica_of(tj(), "ds", tj_pod("ds", "launcher", 0, "Running")).label == "launcher-0");
  CHECK(replica_of(tj(), "t", tj_pod("t", "dataset-initializer", 0, "Succeeded")).label ==
        "dataset-initializer-0");
  // Before Kubernetes 1.28 the completion index is an annotation only.
  json old = tj_pod("mnist", "node", 2, "Running");
  old["metadata"]["labels"].erase("batch.kubernetes.io/job-completion-index");
  old["metadata"]["annotations"] = {{"batch.kubernetes.io/job-completion-index", "2"}};
  CHECK(replica_of(tj(), "mnist", old).label == "node-2");
}

TEST_CASE("TrainJob: the chief is node rank 0, the MPI launcher when there is one") {
  const json job =
      fixtures::trainjob("mnist", "2024-05-01T09:50:00Z", "torch-distributed", 2, 1, running_status());
  const json init = tj_pod("mnist", "dataset-initializer", 0, "Succeeded");
  const json n1 = tj_pod("mnist", "node", 1, "Running");
  const json n0 = tj_pod("mnist", "node", 0, "Running", "node-2");
  TrainingJob t = build_job(tj(), job, {&init, &n1, &n0}, fixtures::now());
  CHECK(t.status == JobStatus::Running);
  CHECK(t.chief_name == "mnist-node-0-0-x7k2p");
  CHECK(t.chief_node_ip == "192.168.0.32");
  CHECK(t.instances.front().is_chief);

  const json ds =
      fixtures::trainjob("ds", "2024-05-01T09:50:00Z", "deepspeed-distributed", 3, 0, running_status());
  const json l = tj_pod("ds", "launcher", 0, "Running");
  const json d0 = tj_pod("ds", "node", 0, "Running");
  CHECK(build_job(tj(), ds, {&d0, &l}, fixtures::now()).chief_name == "ds-launcher-0-0-x7k2p");

  // A runtime whose trainer job is not named node: index 0 of the job that runs.
  const json r1 = tj_pod("lost", "trainer", 1, "Running");
  const json r0 = tj_pod("lost", "trainer", 0, "Running");
  const json lost =
      fixtures::trainjob("lost", "2024-05-01T09:50:00Z", "torch-renamed", 2, 1, running_status());
  CHECK(build_job(tj(), lost, {&r1, &r0}, fixtures::now()).chief_name == "lost-trainer-0-0-x7k2p");
}

TEST_CASE("TrainJob: a Pending node makes a running TrainJob PENDING, with the scheduler's reason") {
  const json job =
      fixtures::trainjob("big", "2024-05-01T09:50:00Z", "torch-distributed", 2, 16, running_status());
  const json n0 = tj_pod("big", "node", 0, "Running");
  const json n1 = tj_pod("big", "node", 1, "Pending", "");
  const TrainingJob t = build_job(tj(), job, {&n0, &n1}, fixtures::now());
  CHECK(t.status == JobStatus::Pending);
  CHECK(t.reason == "Unschedulable");
}

TEST_CASE("TrainJob: requested GPUs are resourcesPerNode times numNodes before pods exist") {
  CHECK(spec_requested_gpus(tj(),
                            fixtures::trainjob("a", "2024-05-01T09:50:00Z", "torch-distributed", 4, 2)) == 8);
  json requests = fixtures::trainjob("b", "2024-05-01T09:50:00Z", "torch-distributed", 2, 0);
  requests["spec"]["trainer"]["resourcesPerNode"] = {{"requests", {{"nvidia.com/gpu", 3}}}};
  CHECK(spec_requested_gpus(tj(), requests) == 6);
  json one = fixtures::trainjob("c", "2024-05-01T09:50:00Z", "torch-distributed", 1, 2);
  one["spec"]["trainer"].erase("numNodes");  // the runtime's mlPolicy.numNodes: 1
  CHECK(spec_requested_gpus(tj(), one) == 2);
  json none = one;
  none["spec"].erase("trainer");  // the runtime's own resources are not read
  CHECK(spec_requested_gpus(tj(), none) == 0);
}

TEST_CASE("TrainJob: progress from status.trainerStatus, in get's and list's words and JSON") {
  // The shape the status server applies (trainjob_types.go TrainerStatus; kubesim's
  // trainer_status_report.cpp writes it so).
  json status = running_status();
  status["trainerStatus"] = {{"progressPercentage", 42},
                             {"estimatedRemainingSeconds", 3725},
                             {"metrics", json::array({{{"name", "loss"}, {"value", "0.231"}},
                                                      {{"name", "accuracy"}, {"value", "0.91"}}})},
                             {"lastUpdatedTime", "2024-05-01T09:59:50Z"}};
  const json job = fixtures::trainjob("mnist", "2024-05-01T09:50:00Z", "torch-distributed", 2, 1, status);
  const TrainingJob t = build_job(tj(), job, {}, fixtures::now());
  REQUIRE(t.progress);
  CHECK(t.progress->display() == "42% (ETA 1h)");
  CHECK(t.progress->metrics_display() == "loss=0.231 accuracy=0.91");
  const auto j = t.to_json()["progress"];
  CHECK(j["percent"] == 42);
  CHECK(j["remainingSeconds"] == 3725);
  CHECK(j["metrics"]["loss"] == "0.231");
  CHECK(j["lastUpdated"] == "2024-05-01T09:59:50Z");

  status["trainerStatus"] = {{"lastUpdatedTime", "2024-05-01T09:59:50Z"}};  // nothing known yet
  const TrainingJob unknown =
      build_job(tj(), fixtures::trainjob("m", "2024-05-01T09:50:00Z", "torch-distributed", 2, 1, status), {},
                fixtures::now());
  REQUIRE(unknown.progress);
  CHECK(unknown.progress->display() == "-");
  CHECK(unknown.to_json()["progress"]["percent"].is_null());
  // Without trainerStatus (the gate off), and for other kinds: no progress at all.
  CHECK_FALSE(
      build_job(tj(),
                fixtures::trainjob("n", "2024-05-01T09:50:00Z", "torch-distributed", 2, 1, running_status()),
                {}, fixtures::now())
          .progress);
  CHECK_FALSE(
      build_job(tj(),
                fixtures::trainjob("n", "2024-05-01T09:50:00Z", "torch-distributed", 2, 1, running_status()),
                {}, fixtures::now())
          .to_json()
          .contains("progress"));
}

TEST_CASE("TrainJob: a failed node's container named node is the root cause") {
  json status = {{"conditions", json::array({{{"type", "Failed"},
                                              {"status", "True"},
                                              {"reason", "FailedJobs"},
                                              {"message",
                                               "jobset failed due to one or more job failures (first "
                                               "failed job: broken-node-0)"},
                                              {"lastTransitionTime", "2024-05-01T09:58:30Z"}}})}};
  const json job = fixtures::trainjob("broken", "2024-05-01T09:50:00Z", "torch-distributed", 2, 1, status);
  json failed = tj_pod("broken", "node", 1, "Failed");
  // A sidecar before the trainer's container: the exit code is node's.
  failed["status"]["containerStatuses"].insert(
      failed["status"]["containerStatuses"].begin(),
      {{"name", "sidecar"}, {"state", {{"terminated", {{"exitCode", 0}, {"reason", "Completed"}}}}}});
  const auto f = root_cause(tj(), job, {tj_pod("broken", "node", 0, "Running"), failed});
  REQUIRE(f);
  CHECK(f->pod == "broken-node-0-1-x7k2p");
  CHECK(f->replica == "node-1");  // as logs --all names it, not the pod name after "broken-"
  CHECK(f->container == "node");
  CHECK(f->exit_code == 1);
  CHECK(f->reason == "Error");
  const TrainingJob t = build_job(tj(), job, {}, fixtures::now());
  CHECK(t.status == JobStatus::Failed);
  CHECK(t.reason == "FailedJobs");
  CHECK(t.duration.count() == 510);
}
