#include <catch2/catch.hpp>

#include <algorithm>

#include "job_fixtures.h"
#include "jobs/build_job.h"
#include "jobs/job_pods.h"
#include "jobs/kind.h"
#include "jobs/pod_summary.h"
#include "jobs/status_rules.h"

using namespace fixtures;
using namespace trainctl::jobs;

namespace {

TrainingJob build(const std::string& t, const json& job, const std::vector<json>& pods) {
  PodRefs refs;
  for (const auto& p : pods) refs.push_back(&p);
  return build_job(kind_named(t), job, refs, now());
}

const std::string kCreated = "2024-05-01T09:50:00Z";
}  // namespace

TEST_CASE("PyTorchJob waiting for GPUs is PENDING with nothing allocated") {
  json status = {{"conditions", json::array({condition("Created", "True", kCreated)})}};
  std::vector<json> pods = {pod("a-master-0", pytorch_labels("a", "master", 0), "Pending", 2),
                            pod("a-worker-0", pytorch_labels("a", "worker", 0), "Pending", 2)};
  auto j = build("pytorchjob", pytorchjob("a", kCreated, 2, 2, status), pods);
  CHECK(j.status == JobStatus::Pending);
  CHECK(j.duration.count() == 0);  // no status.startTime yet
  CHECK(j.gpus_requested == 4);
  CHECK(j.gpus_allocated == 0);
  CHECK(j.allocated_display() == "0");
  CHECK(j.node_display() == "N/A");
  CHECK(j.chief_name == "a-master-0");
  REQUIRE(j.instances.size() == 2);
  CHECK(j.instances[0].status == "Pending");
  CHECK(j.instances[0].is_chief);
}

TEST_CASE("a job being deleted is TERMINATING until it is gone, unless it has finished") {
  json running = {{"startTime", "2024-05-01T09:55:00Z"},
                  {"conditions", json::array({condition("Running", "True", "2024-05-01T09:55:00Z")})}};
  json job = pytorchjob("a", kCreated, 1, 1, running);
  // As kube-apiserver leaves a job deleted in the foreground.
  job["metadata"]["deletionTimestamp"] = "2024-05-01T09:59:00Z";
  job["metadata"]["finalizers"] = json::array({"foregroundDeletion"});
  json master = pod("a-master-0", pytorch_labels("a", "master", 0), "Running", 1, "node-1");
  master["metadata"]["deletionTimestamp"] = "2024-05-01T09:59:30Z";
  auto j = build("pytorchjob", job, {master});
  CHECK(j.status == JobStatus::Terminating);
  CHECK(j.instances[0].status == "Terminating");
  CHECK(j.allocated_display() == "1");  // its pod holds the GPU until it has stopped
  CHECK(j.to_json()["status"] == "TERMINATING");

  json done = {{"startTime", "2024-05-01T09:51:00Z"},
               {"completionTime", "2024-05-01T09:54:30Z"},
               {"conditions", json::array({condition("Succeeded", "True", "2024-05-01T09:54:30Z")})}};
  json finished = pytorchjob("b", kCreated, 1, 1, done);
  finished["metadata"]["deletionTimestamp"] = "2024-05-01T09:59:00Z";
  CHECK(build("pytorchjob", finished, {}).status == JobStatus::Succeeded);
  json vc = volcanojob("v", kCreated, {{"phase", "Failed"}});
  vc["metadata"]["deletionTimestamp"] = "2024-05-01T09:59:00Z";
  CHECK(build("volcanojob", vc, {}).status == JobStatus::Failed);
}

TEST_CASE("PyTorchJob running: RUNNING, duration from startTime, chief host IP as node") {
  json status = {{"startTime", "2024-05-01T09:55:00Z"},
                 {"conditions", json::array({condition("Created", "True", kCreated),
                                             condition("Running", "True", "2024-05-01T09:55:00Z")})}};
  std::vector<json> pods = {pod("a-worker-0", pytorch_labels("a", "worker", 0), "Running", 1, "node-2"),
                            pod("a-master-0", pytorch_labels("a", "master", 0), "Running", 1, "node-1")};
  auto j = build("pytorchjob", pytorchjob("a", kCreated, 2, 1, status), pods);
  CHECK(j.status == JobStatus::Running);
  CHECK(j.duration.count() == 300);
  CHECK(j.gpus_requested == 2);
  CHECK(j.gpus_allocated == 2);
  CHECK(j.node_display() == "192.168.0.31");
  CHECK(j.instances[0].name == "a-master-0");  // chief first
  CHECK(j.instances[1].node_name == "node-2");
  CHECK_FALSE(j.ended.has_value());
}

TEST_CASE("PyTorchJob RUNNING with a Pending pod shows PENDING") {
  json status = {{"startTime", "2024-05-01T09:55:00Z"},
                 {"conditions", json::array({condition("Running", "True", "2024-05-01T09:55:00Z")})}};
  std::vector<json> pods = {pod("a-master-0", pytorch_labels("a", "master", 0), "Running", 1, "node-1"),
                            pod("a-worker-0", pytorch_labels("a", "worker", 0), "Pending", 1)};
  auto j = build("pytorchjob", pytorchjob("a", kCreated, 2, 1, status), pods);
  CHECK(j.status == JobStatus::Pending);
  CHECK(j.gpus_allocated == 1);
}

TEST_CASE("PyTorchJob succeeded: completionTime - startTime, EndTime = create + duration, N/A allocated") {
  json status = {{"startTime", "2024-05-01T09:51:00Z"},
                 {"completionTime", "2024-05-01T09:54:30Z"},
                 {"conditions", json::array({condition("Created", "True", kCreated),
                                             condition("Running", "False", "2024-05-01T09:54:30Z"),
                                             condition("Succeeded", "True", "2024-05-01T09:54:30Z")})}};
  std::vector<json> pods = {pod("a-master-0", pytorch_labels("a", "master", 0), "Succeeded", 1, "node-1")};
  auto j = build("pytorchjob", pytorchjob("a", kCreated, 1, 1, status), pods);
  CHECK(j.status == JobStatus::Succeeded);
  CHECK(j.duration.count() == 210);
  REQUIRE(j.ended.has_value());
  CHECK(format_rfc3339(*j.ended) == "2024-05-01T09:53:30Z");
  CHECK(j.gpus_allocated == 0);
  CHECK(j.allocated_display() == "N/A");
  CHECK(j.instances[0].status == "Completed");
}

TEST_CASE("PyTorchJob failed: Failed beats Running; duration ends at the chief's last transition") {
  json status = {{"startTime", "2024-05-01T09:51:00Z"},
                 {"conditions", json::array({condition("Running", "True", "2024-05-01T09:51:00Z"),
                                             condition("Failed", "True", "2024-05-01T09:59:00Z")})}};
  std::vector<json> pods = {pod("a-master-0", pytorch_labels("a", "master", 0), "Failed", 1, "node-1")};
  auto j = build("pytorchjob", pytorchjob("a", kCreated, 1, 1, status), pods);
  CHECK(j.status == JobStatus::Failed);
  // The master's Ready condition moved at 09:58:00; created 09:50:00.
  CHECK(j.duration.count() == 480);
  CHECK(j.instances[0].status == "Error");
}

TEST_CASE("PyTorchJob restarting: Restarting replaces Running, so it shows PENDING") {
  // training-operator v1.9.0 pkg/util/status.go filterOutCondition drops Running when it sets
  // Restarting.
  json status = {{"startTime", "2024-05-01T09:51:00Z"},
                 {"conditions", json::array({condition("Created", "True", kCreated),
                                             condition("Restarting", "True", "2024-05-01T09:57:00Z")})}};
  json master = pod("a-master-0", pytorch_labels("a", "master", 0), "Running", 1, "node-1");
  master["status"]["containerStatuses"][0]["restartCount"] = 2;
  master["status"]["containerStatuses"][0]["ready"] = false;
  master["status"]["containerStatuses"][0]["state"] = {{"waiting", {{"reason", "CrashLoopBackOff"}}}};
  auto j = build("pytorchjob", pytorchjob("a", kCreated, 1, 1, status), {master});
  CHECK(j.status == JobStatus::Pending);
  CHECK(j.instances[0].status == "CrashLoopBackOff");
  CHECK(j.instances[0].restarts == 2);
  CHECK(j.duration.count() == 540);  // still now - startTime
}

TEST_CASE("MPIJob: created only is PENDING; a running launcher makes it RUNNING") {
  json created = {{"conditions", json::array({condition("Created", "True", kCreated, "MPIJobCreated")})}};
  std::vector<json> pending_pods = {pod("m-launcher-abcde", mpi_labels("m", "launcher"), "Pending", 0),
                                    pod("m-worker-0", mpi_labels("m", "worker"), "Pending", 1)};
  auto p = build("mpijob", mpijob("m", kCreated, 2, 1, created), pending_pods);
  CHECK(p.status == JobStatus::Pending);
  CHECK(p.duration.count() == 600);  // MPI: now - creation
  CHECK(p.gpus_requested == 1);      // from the pods that exist

  std::vector<json> running = {pod("m-launcher-abcde", mpi_labels("m", "launcher"), "Running", 0, "node-1"),
                               pod("m-worker-0", mpi_labels("m", "worker"), "Running", 1, "node-1"),
                               pod("m-worker-1", mpi_labels("m", "worker"), "Running", 1, "node-2")};
  auto r = build("mpijob", mpijob("m", kCreated, 2, 1, created), running);
  CHECK(r.status == JobStatus::Running);
  CHECK(r.chief_name == "m-launcher-abcde");
  CHECK(r.gpus_requested == 2);
  CHECK(r.gpus_allocated == 2);
}

TEST_CASE("MPIJob succeeded: completionTime - creation") {
  json status = {{"startTime", "2024-05-01T09:51:00Z"},
                 {"completionTime", "2024-05-01T09:56:00Z"},
                 {"conditions",
                  json::array({condition("Running", "False", "2024-05-01T09:56:00Z", "MPIJobRunning"),
                               condition("Succeeded", "True", "2024-05-01T09:56:00Z", "MPIJobSucceeded")})}};
  auto j = build("mpijob", mpijob("m", kCreated, 2, 1, status), {});
  CHECK(j.status == JobStatus::Succeeded);
  CHECK(j.duration.count() == 360);
  CHECK(j.gpus_requested == 2);  // no pods left: from the spec, 2 workers x 1 GPU
}

TEST_CASE("Volcano Job finished: state.lastTransitionTime - creation") {
  auto done = build(
      "volcanojob",
      volcanojob("v", kCreated, {{"phase", "Completed"}, {"lastTransitionTime", "2024-05-01T09:55:00Z"}}),
      {});
  CHECK(done.duration.count() == 300);
  CHECK(done.gpus_requested == 2);  // trainer task: 2 replicas x 1 GPU; pserver none
}

TEST_CASE("Volcano Job chief is task index 0 of the first task") {
  std::vector<json> pods = {pod("v-trainer-0", volcano_labels("v", "trainer", 0), "Running", 1, "node-1"),
                            pod("v-pserver-0", volcano_labels("v", "pserver", 0), "Running", 0, "node-2"),
                            pod("v-trainer-1", volcano_labels("v", "trainer", 1), "Running", 1, "node-1")};
  auto j = build("volcanojob", volcanojob("v", kCreated, {{"phase", "Running"}}), pods);
  CHECK(j.status == JobStatus::Running);
  CHECK(j.chief_name == "v-pserver-0");
  CHECK(j.node_display() == "192.168.0.32");
  CHECK(j.gpus_allocated == 2);
}

TEST_CASE("operator-free PyTorch (Indexed batch Job): active, Complete, Failed") {
  const JobKind& k = kind_named("batchjob");
  CHECK(object_status(k, batchjob("b", kCreated, json::object())) == JobStatus::Pending);
  json running = {{"active", 2}, {"startTime", "2024-05-01T09:52:00Z"}};
  std::vector<json> pods = {pod("b-0-abcde", batch_labels("b", 0), "Running", 1, "node-1"),
                            pod("b-1-fghij", batch_labels("b", 1), "Running", 1, "node-2")};
  auto r = build("batchjob", batchjob("b", kCreated, running), pods);
  CHECK(r.status == JobStatus::Running);
  CHECK(r.duration.count() == 480);
  CHECK(r.chief_name == "b-0-abcde");

  json complete = {{"startTime", "2024-05-01T09:52:00Z"},
                   {"completionTime", "2024-05-01T09:53:00Z"},
                   {"succeeded", 2},
                   {"conditions", json::array({{{"type", "Complete"}, {"status", "True"}}})}};
  auto c = build("batchjob", batchjob("b", kCreated, complete), {});
  CHECK(c.status == JobStatus::Succeeded);
  CHECK(c.duration.count() == 60);

  json failed = {{"startTime", "2024-05-01T09:52:00Z"},
                 {"failed", 1},
                 {"conditions", json::array({{{"type", "Failed"},
                                              {"status", "True"},
                                              {"reason", "BackoffLimitExceeded"},
                                              {"lastTransitionTime", "2024-05-01T09:54:00Z"}}})}};
  auto f = build("batchjob", batchjob("b", kCreated, failed), {});
  CHECK(f.status == JobStatus::Failed);
  CHECK(f.duration.count() == 120);
}

TEST_CASE("requestGPUsOfJobOwner annotation overrides the sum of limits") {
  json p = pod("a-master-0", pytorch_labels("a", "master", 0), "Running", 1, "node-1");
  p["metadata"]["annotations"] = {{"requestGPUsOfJobOwner", "8"}};
  auto j = build("pytorchjob", pytorchjob("a", kCreated, 1, 1), {p});
  CHECK(j.gpus_requested == 8);
  CHECK(j.gpus_allocated == 1);
}

TEST_CASE("instances sort chief first, then in natural order") {
  std::vector<json> pods;
  for (int i : {10, 2, 1})
    pods.push_back(
        pod("a-worker-" + std::to_string(i), pytorch_labels("a", "worker", i), "Running", 1, "node-1"));
  pods.push_back(pod("a-master-0", pytorch_labels("a", "master", 0), "Running", 1, "node-1"));
  auto j = build("pytorchjob", pytorchjob("a", kCreated, 4, 1), pods);
  REQUIRE(j.instances.size() == 4);
  CHECK(j.instances[0].name == "a-master-0");
  CHECK(j.instances[1].name == "a-worker-1");
  CHECK(j.instances[2].name == "a-worker-2");
  CHECK(j.instances[3].name == "a-worker-10");
}

namespace {

// The job built from `pods` folded in this order, with or without instance rows.
TrainingJob fold_in_order(const std::string& t, const json& job, const std::vector<json>& pods,
                          bool instances) {
  JobPods folded(instances);
  for (const auto& p : pods) folded.add(kind_named(t), summarize_pod(p, false));
  return build_job(kind_named(t), summarize_job(kind_named(t), job), std::move(folded), now());
}

}  // namespace

TEST_CASE("folded pods give the same job in every order, with or without instance rows") {
  // Two chief candidates (pserver-0 Pending and newer, trainer-0 of the second task), a
  // Pending pod that turns RUNNING into PENDING, and GPUs held only by started pods.
  std::vector<json> pods = {
      pod("v-pserver-0", volcano_labels("v", "pserver", 0), "Pending", 0, "", "default", "2024-05-01T09:55:00Z"),
      pod("v-pserver-0-old", volcano_labels("v", "pserver", 0), "Running", 0, "node-2"),
      pod("v-trainer-0", volcano_labels("v", "trainer", 0), "Running", 2, "node-1"),
      pod("v-trainer-1", volcano_labels("v", "trainer", 1), "Succeeded", 1, "node-3")};
  pods[2]["metadata"]["annotations"] = {{"requestGPUsOfJobOwner", "6"}};
  const json job = volcanojob("v", kCreated, {{"phase", "Running"}});
  std::vector<size_t> order = {0, 1, 2, 3};
  int orders = 0;
  do {
    std::vector<json> shuffled;
    for (size_t i : order) shuffled.push_back(pods[i]);
    for (bool instances : {true, false}) {
      CAPTURE(order, instances);
      const auto j = fold_in_order("volcanojob", job, shuffled, instances);
      CHECK(j.status == JobStatus::Pending);
      CHECK(j.chief_name == "v-pserver-0-old");  // not Pending wins over the newer Pending one
      CHECK(j.node_display() == "192.168.0.32");
      CHECK(j.gpus_requested == 6);
      CHECK(j.gpus_allocated == 2);
      if (instances) {
        REQUIRE(j.instances.size() == 4);
        CHECK(j.instances[0].name == "v-pserver-0-old");
        CHECK(j.instances[0].is_chief);
        CHECK(j.instances[1].name == "v-pserver-0");
        CHECK_FALSE(j.instances[1].is_chief);
      } else {
        CHECK(j.instances.empty());
      }
    }
    ++orders;
  } while (std::next_permutation(order.begin(), order.end()));
  CHECK(orders == 24);
}

TEST_CASE("a job's only pod is its chief, whatever its labels; a second pod ends that") {
  json lone = pod("a-worker-0", pytorch_labels("a", "worker", 0), "Running", 1, "node-1");
  json other = pod("a-worker-1", pytorch_labels("a", "worker", 1), "Running", 1, "node-2");
  for (bool instances : {true, false}) {
    CAPTURE(instances);
    CHECK(fold_in_order("pytorchjob", pytorchjob("a", kCreated, 1, 1), {lone}, instances).chief_name ==
          "a-worker-0");
    CHECK(fold_in_order("pytorchjob", pytorchjob("a", kCreated, 1, 1), {lone, other}, instances)
              .chief_name.empty());
  }
}
