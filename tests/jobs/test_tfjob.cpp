// TFJob: the chief is the Chief (or Master) replica's pod, else worker 0 (training-operator
// v1.9.0 tfjob_controller.go IsMasterRole; Arena's trainer_tensorflow.go isChiefPod); status
// and duration from the kubeflow.org conditions and times; requested GPUs from every replica
// of spec.tfReplicaSpecs.
#include <algorithm>
#include <catch2/catch.hpp>

#include "job_fixtures.h"
#include "jobs/build_job.h"
#include "jobs/job_pods.h"
#include "jobs/job_summary.h"
#include "jobs/kind.h"
#include "jobs/pod_summary.h"

using namespace fixtures;
using namespace trainctl::jobs;

namespace {

const char* const kTFCreated = "2024-05-01T09:50:00Z";

const json kTFRunning = {{"startTime", "2024-05-01T09:55:00Z"},
                         {"conditions", json::array({condition("Created", "True", kTFCreated),
                                                     condition("Running", "True", "2024-05-01T09:55:00Z")})}};

// A one-GPU pod of TFJob t: t-TYPE-INDEX with the operator's labels.
json t_pod(const std::string& type, int index, const std::string& phase, const std::string& node) {
  return pod("t-" + type + "-" + std::to_string(index), tf_labels("t", type, index), phase, 1, node);
}

// The job built from `pods` folded in every order; checks that each order gives the same
// chief, and returns the job of the first.
TrainingJob tf_build_every_order(const json& job, const std::vector<json>& pods) {
  const JobKind& kind = kind_named("tfjob");
  std::vector<size_t> order(pods.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::optional<TrainingJob> first;
  do {
    JobPods folded;
    for (size_t i : order) folded.add(kind, summarize_pod(pods[i]));
    TrainingJob j = build_job(kind, summarize_job(kind, job), std::move(folded), now());
    if (!first) {
      first = std::move(j);
      continue;
    }
    CAPTURE(order);
    CHECK(j.chief_name == first->chief_name);
  } while (std::next_permutation(order.begin(), order.end()));
  return std::move(*first);
}

}  // namespace

TEST_CASE("TFJob: resource, labels and Arena's type names") {
  const JobKind& k = kind_named("tfjob");
  CHECK(k.resource.display() == kind_for_type("tfjob").resource.display());
  CHECK(k.resource.plural == "tfjobs");
  CHECK(k.resource.kind == "TFJob");
  CHECK(k.trainer_name == "TFJOB");
  CHECK(k.created_by == "TFJob");
  for (const char* t : {"tfjob", "TFJob", "tensorflow", "tf", "TF"}) CHECK(kind_for_type(t).name == "tfjob");
  CHECK(k.pod_selector("t") ==
        "training.kubeflow.org/job-name=t,training.kubeflow.org/operator-name=tfjob-controller");
}

TEST_CASE("TFJob with a Chief replica: the chief pod is the chief, not worker 0") {
  const json job = tfjob("t", kTFCreated, 1, 2, 1, true, kTFRunning);
  std::vector<json> pods = {t_pod("ps", 0, "Running", "node-3"), t_pod("worker", 0, "Running", "node-2"),
                            t_pod("worker", 1, "Running", "node-2"), t_pod("chief", 0, "Running", "node-1")};
  const TrainingJob j = tf_build_every_order(job, pods);
  CHECK(j.kind->name == "tfjob");
  CHECK(j.status == JobStatus::Running);
  CHECK(j.duration.count() == 300);
  CHECK(j.chief_name == "t-chief-0");
  CHECK(j.node_display() == "192.168.0.31");
  CHECK(j.gpus_requested == 4);
  CHECK(j.gpus_allocated == 4);
  REQUIRE(j.instances.size() == 4);
  CHECK(j.instances[0].name == "t-chief-0");
  CHECK(j.instances[0].is_chief);
  CHECK_FALSE(j.instances[2].is_chief);
}

TEST_CASE("TFJob without a Chief replica: worker 0 is the chief; a Master replica wins over it") {
  const json job = tfjob("t", kTFCreated, 2, 2, 1, false, kTFRunning);
  std::vector<json> pods = {t_pod("ps", 0, "Running", "node-3"), t_pod("ps", 1, "Running", "node-3"),
                            t_pod("worker", 1, "Running", "node-2"), t_pod("worker", 0, "Running", "node-1")};
  const TrainingJob j = tf_build_every_order(job, pods);
  CHECK(j.chief_name == "t-worker-0");
  CHECK(j.node_display() == "192.168.0.31");
  CHECK(j.instances[0].name == "t-worker-0");

  // No pod is a chief: ps-0 is not (its index is 0, its type is not worker).
  std::vector<json> no_worker0 = {pods[0], pods[2]};
  CHECK(tf_build_every_order(job, no_worker0).chief_name.empty());

  // A Master replica (kept for backwards compatibility) is the chief as a Chief one is.
  json master_job = job;
  master_job["spec"]["tfReplicaSpecs"]["Master"] = master_job["spec"]["tfReplicaSpecs"]["Worker"];
  master_job["spec"]["tfReplicaSpecs"]["Master"]["replicas"] = 1;
  pods.push_back(
      pod("t-master-0", tf_labels("t", "master", 0), "Pending", 1, "", "default", "2024-05-01T09:56:00Z"));
  CHECK(tf_build_every_order(master_job, pods).chief_name == "t-master-0");
}

TEST_CASE("TFJob chief: the newest not Pending chief pod, as for the other kinds") {
  const json job = tfjob("t", kTFCreated, 0, 2, 1, false, kTFRunning);
  std::vector<json> pods = {pod("t-worker-0-old", tf_labels("t", "worker", 0), "Failed", 1, "node-2"),
                            pod("t-worker-0", tf_labels("t", "worker", 0), "Running", 1, "node-1", "default",
                                "2024-05-01T09:54:00Z"),
                            pod("t-worker-0-new", tf_labels("t", "worker", 0), "Pending", 1, "", "default",
                                "2024-05-01T09:58:00Z")};
  CHECK(tf_build_every_order(job, pods).chief_name == "t-worker-0");
}

TEST_CASE("TFJob requested GPUs: every replica of spec.tfReplicaSpecs before pods exist") {
  const JobKind& k = kind_named("tfjob");
  CHECK(spec_requested_gpus(k, tfjob("t", kTFCreated, 2, 3, 1)) == 5);        // 2 ps + 3 workers
  CHECK(spec_requested_gpus(k, tfjob("t", kTFCreated, 1, 2, 2, true)) == 8);  // + chief, 2 each
  CHECK(spec_requested_gpus(kind_named("pytorchjob"), tfjob("t", kTFCreated, 2, 3, 1)) == 0);
  const TrainingJob j = tf_build_every_order(tfjob("t", kTFCreated, 1, 2, 1), {});
  CHECK(j.gpus_requested == 3);
  CHECK(j.status == JobStatus::Pending);
  CHECK(j.duration.count() == 0);  // no startTime yet
}

TEST_CASE("TFJob pods are not PyTorchJob's, though both carry training.kubeflow.org/job-name") {
  const PodSummary tf_pod = summarize_pod(pod("t-worker-0", tf_labels("t", "worker", 0), "Running", 1));
  CHECK(pod_job_of_kind(kind_named("tfjob"), tf_pod) == "t");
  CHECK(pod_job_of_kind(kind_named("pytorchjob"), tf_pod).empty());
  CHECK(pod_job_of_kind(kind_named("mpijob"), tf_pod).empty());
  const PodSummary py_pod = summarize_pod(pod("a-master-0", pytorch_labels("a", "master", 0), "Running", 1));
  CHECK(pod_job_of_kind(kind_named("tfjob"), py_pod).empty());
}

TEST_CASE("TFJob duration: completionTime - startTime; FAILED without it: the chief's last transition") {
  json done = {{"startTime", "2024-05-01T09:51:00Z"},
               {"completionTime", "2024-05-01T09:54:30Z"},
               {"conditions", json::array({condition("Running", "False", "2024-05-01T09:54:30Z"),
                                           condition("Succeeded", "True", "2024-05-01T09:54:30Z")})}};
  const TrainingJob ok = tf_build_every_order(tfjob("t", kTFCreated, 0, 1, 1, false, done),
                                              {t_pod("worker", 0, "Succeeded", "node-1")});
  CHECK(ok.status == JobStatus::Succeeded);
  CHECK(ok.duration.count() == 210);

  json failed = {{"startTime", "2024-05-01T09:51:00Z"},
                 {"conditions", json::array({condition("Running", "False", "2024-05-01T09:59:00Z"),
                                             condition("Failed", "True", "2024-05-01T09:59:00Z")})}};
  const json job = tfjob("t", kTFCreated, 1, 2, 1, false, failed);
  std::vector<json> pods = {t_pod("worker", 0, "Failed", "node-1"), t_pod("worker", 1, "Running", "node-2")};
  const TrainingJob f = tf_build_every_order(job, pods);
  CHECK(f.status == JobStatus::Failed);
  // Worker 0's Ready condition moved at 09:58:00 (pod fixture); started 09:51:00.
  CHECK(f.duration.count() == 420);
  // Without the chief: the Failed condition's transition.
  CHECK(tf_build_every_order(job, {pods[1]}).chief_name == "t-worker-1");  // its only pod
  CHECK(tf_build_every_order(job, {pods[1], pods[1]}).duration.count() == 480);
}
