// Pods of the older releases docs/operators.md covers, labelled as each labels them:
// kubeflow/pytorch-operator v0.7.0 (pkg/controller.v1/pytorch/controller.go and pod.go; the
// vendored tf-operator jobcontroller GenLabels: group-name, job-name, pytorch-job-name,
// controller-name, pytorch-replica-type, pytorch-replica-index, job-role), training-operator
// v1.3.0 (kubeflow/common v0.3.7 GenLabels and createNewPod: group-name, job-name,
// replica-type, replica-index, job-role), each with its controller ownerReference
// (GenOwnerReference). They must come out as the current releases' pods do: the job, the
// replica type and index, the chief.
#include <catch2/catch.hpp>

#include "job_fixtures.h"
#include "jobs/build_job.h"
#include "jobs/job_pods.h"
#include "jobs/legacy_pods.h"
#include "jobs/pod_summary.h"
#include "jobs/replica.h"

using namespace trainctl::jobs;
using nlohmann::json;

namespace {

json owned(json pod, const std::string& kind, const std::string& job) {
  pod["metadata"]["ownerReferences"] = json::array({{{"apiVersion", "kubeflow.org/v1"},
                                                     {"kind", kind},
                                                     {"name", job},
                                                     {"uid", "6f1c2a4e-0000-4000-8000-000000000001"},
                                                     {"controller", true},
                                                     {"blockOwnerDeletion", true}}});
  return pod;
}

json pytorch_operator_v07_pod(const std::string& job, const std::string& type, int index) {
  json labels = {{"group-name", "kubeflow.org"},       {"job-name", job},
                 {"pytorch-job-name", job},            {"controller-name", "pytorch-operator"},
                 {"pytorch-replica-type", type},       {"pytorch-replica-index", std::to_string(index)}};
  if (type == "master") labels["job-role"] = "master";
  return owned(fixtures::pod(job + "-" + type + "-" + std::to_string(index), labels, "Running", 1, "gpu-a"),
               "PyTorchJob", job);
}

json training_operator_v13_pod(const std::string& kind, const std::string& job, const std::string& type, int index) {
  json labels = {{"group-name", "kubeflow.org"},
                 {"job-name", job},
                 {"replica-type", type},
                 {"replica-index", std::to_string(index)}};
  if (type == "master") labels["job-role"] = "master";
  return owned(fixtures::pod(job + "-" + type + "-" + std::to_string(index), labels, "Running", 1, "gpu-a"), kind,
               job);
}

}  // namespace

TEST_CASE("legacy pods: pytorch-operator v0.7 and training-operator v1.3 pods are the job's, with replica and chief") {
  const JobKind& kind = kind_named("pytorchjob");
  for (const bool v07 : {true, false}) {
    CAPTURE(v07);
    auto make = [&](const std::string& type, int index) {
      return v07 ? pytorch_operator_v07_pod("old", type, index)
                 : training_operator_v13_pod("PyTorchJob", "old", type, index);
    };
    json master = make("master", 0), worker = make("worker", 1);
    CHECK(modernize_pod(kind, master) == "old");
    CHECK(modernize_pod(kind, worker) == "old");
    const PodSummary ms = summarize_pod(master), ws = summarize_pod(worker);
    CHECK(pod_belongs_to(kind, ms, "default", "old"));
    CHECK(pod_belongs_to(kind, ws, "default", "old"));
    CHECK(chief_rank(kind, ms) == std::optional<size_t>(0));
    CHECK_FALSE(chief_rank(kind, ws).has_value());
    CHECK(replica_of(kind, "old", master).label == "master-0");
    CHECK(replica_of(kind, "old", worker).label == "worker-1");
    const json job = fixtures::pytorchjob("old", "2024-05-01T09:50:00Z", 1, 1,
                                          {{"conditions", json::array({fixtures::condition("Running", "True",
                                                                                           "2024-05-01T09:51:00Z")})}});
    const TrainingJob t = build_job(kind, job, {&master, &worker}, fixtures::now());
    REQUIRE(t.instances.size() == 2);
    CHECK(t.chief_name == "old-master-0");
  }
}

TEST_CASE("legacy pods: the owner tells a v1.3 TFJob's pod from a PyTorchJob's of the same labels") {
  json tf = training_operator_v13_pod("TFJob", "same", "worker", 0);
  json copy = tf;
  CHECK(modernize_pod(kind_named("pytorchjob"), copy).empty());
  CHECK(copy == tf);  // untouched
  CHECK(modernize_pod(kind_named("tfjob"), tf) == "same");
  CHECK(pod_belongs_to(kind_named("tfjob"), summarize_pod(tf), "default", "same"));
  CHECK(replica_of(kind_named("tfjob"), "same", tf).label == "worker-0");
}

TEST_CASE("legacy pods: current pods, pods without a controller owner and kinds without older labels are left") {
  json current = owned(fixtures::pod("now-master-0", fixtures::pytorch_labels("now", "master", 0), "Running", 1),
                       "PyTorchJob", "now");
  CHECK(modernize_pod(kind_named("pytorchjob"), current).empty());
  json orphan = training_operator_v13_pod("PyTorchJob", "o", "worker", 0);
  orphan["metadata"]["ownerReferences"][0]["controller"] = false;
  CHECK(modernize_pod(kind_named("pytorchjob"), orphan).empty());
  json v13 = training_operator_v13_pod("PyTorchJob", "o", "worker", 0);
  CHECK(modernize_pod(kind_named("mpijob"), v13).empty());
  CHECK(modernize_pod(kind_named("volcanojob"), v13).empty());
  // One list for both kinds that share the selector, none for the others.
  const auto selectors =
      legacy_selectors({&kind_named("pytorchjob"), &kind_named("mpijob"), &kind_named("tfjob")});
  REQUIRE(selectors.size() == 1);
  CHECK(selectors[0].first == "group-name=kubeflow.org,!training.kubeflow.org/job-name");
  CHECK(selectors[0].second == std::vector<size_t>{0, 2});
}
