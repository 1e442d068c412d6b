// logs --all's replica rule of every registered kind (JobKind::replica), as a table: the pod
// labels each operator really sets, and the role, rank and label trainctl prints. A kind that
// is registered without rows here, or without a rule, fails.
#include <catch2/catch.hpp>
#include <set>

#include "jobs/kind.h"
#include "jobs/replica.h"

using namespace trainctl::jobs;
using nlohmann::json;

namespace {

struct ReplicaRow {
  std::string kind;    // JobKind::name
  std::string source;  // the upstream code that labels the pod so
  std::string job;
  json metadata;  // the pod's name, labels, annotations
  std::string role;
  std::optional<long long> rank;
  std::string label;
};

const std::string kKf = "training.kubeflow.org/";

std::vector<ReplicaRow> replica_rows() {
  return {
      // training-operator v1.9.0 pkg/controller.v1/common/pod.go: replica-type lower-cased,
      // replica-index.
      {"pytorchjob",
       "training-operator v1.9.0 master",
       "dist",
       {{"name", "dist-master-0"},
        {"labels", {{kKf + "replica-type", "master"}, {kKf + "replica-index", "0"}}}},
       "master",
       0,
       "master-0"},
      {"pytorchjob",
       "training-operator v1.9.0 worker",
       "dist",
       {{"name", "dist-worker-2"},
        {"labels", {{kKf + "replica-type", "worker"}, {kKf + "replica-index", "2"}}}},
       "worker",
       2,
       "worker-2"},
      {"tfjob",
       "training-operator v1.9.0 ps (upper case before v1.2)",
       "tf",
       {{"name", "tf-ps-0"}, {"labels", {{kKf + "replica-type", "PS"}, {kKf + "replica-index", "0"}}}},
       "ps",
       0,
       "ps-0"},
      {"tfjob",
       "training-operator v1.9.0 chief",
       "tf",
       {{"name", "tf-chief-0"}, {"labels", {{kKf + "replica-type", "chief"}, {kKf + "replica-index", "0"}}}},
       "chief",
       0,
       "chief-0"},
      // mpi-operator v0.8.0 mpi_job_controller.go: defaultLabels (job-role) on both, replica-index
      // on workers only.
      {"mpijob",
       "mpi-operator v0.8.0 launcher: no index",
       "mpi",
       {{"name", "mpi-launcher-x7k2p"}, {"labels", {{kKf + "job-role", "launcher"}}}},
       "launcher",
       0,
       "launcher-0"},
      {"mpijob",
       "mpi-operator v0.8.0 worker",
       "mpi",
       {{"name", "mpi-worker-1"}, {"labels", {{kKf + "job-role", "worker"}, {kKf + "replica-index", "1"}}}},
       "worker",
       1,
       "worker-1"},
      // volcano v1.9+ job_controller_util.go createJobPod: task-spec and task-index labels.
      {"volcanojob",
       "volcano v1.9 labels",
       "vj",
       {{"name", "vj-trainer-3"},
        {"labels", {{"volcano.sh/task-spec", "trainer"}, {"volcano.sh/task-index", "3"}}}},
       "trainer",
       3,
       "trainer-3"},
      {"volcanojob",
       "volcano before v1.9: the index in the pod name JOB-TASK-INDEX",
       "vj",
       {{"name", "vj-trainer-4"}, {"labels", {{"volcano.sh/task-spec", "trainer"}}}},
       "trainer",
       4,
       "trainer-4"},
      {"volcanojob",
       "volcano before v1.4: task-spec an annotation",
       "vj",
       {{"name", "vj-ps-0"}, {"annotations", {{"volcano.sh/task-spec", "ps"}}}},
       "ps",
       0,
       "ps-0"},
      // kubernetes pkg/controller/job: the completion index label (1.28+), annotation (1.21+).
      {"batchjob",
       "Indexed Job index 0: master-0",
       "p",
       {{"name", "p-0-abcde"}, {"labels", {{"batch.kubernetes.io/job-completion-index", "0"}}}},
       "master",
       0,
       "master-0"},
      {"batchjob",
       "Indexed Job index 2 (annotation only): worker-1",
       "p",
       {{"name", "p-2-abcde"}, {"annotations", {{"batch.kubernetes.io/job-completion-index", "2"}}}},
       "worker",
       1,
       "worker-1"},
      // JobSet v0.12.0 replicatedjob-name on the pods of each replicated job; the Job's
      // completion index is the node rank (kubeflow/trainer v2.3.0 torch plugin, PET_NODE_RANK).
      {"trainjob",
       "Trainer v2.3.0 node 1",
       "tj",
       {{"name", "tj-node-0-1-x7k2p"},
        {"labels",
         {{"jobset.sigs.k8s.io/replicatedjob-name", "node"},
          {"batch.kubernetes.io/job-completion-index", "1"}}}},
       "node",
       1,
       "node-1"},
      {"trainjob",
       "Trainer v2.3.0 dataset initializer",
       "tj",
       {{"name", "tj-dataset-initializer-0-0-x7k2p"},
        {"labels",
         {{"jobset.sigs.k8s.io/replicatedjob-name", "dataset-initializer"},
          {"batch.kubernetes.io/job-completion-index", "0"}}}},
       "dataset-initializer",
       0,
       "dataset-initializer-0"},
  };
}

}  // namespace

TEST_CASE("replica table: each kind's rule reads its operator's labels") {
  std::set<std::string> covered;
  for (const auto& row : replica_rows()) {
    CAPTURE(row.kind, row.source);
    const JobKind& kind = kind_named(row.kind);
    REQUIRE(kind.replica != nullptr);
    const Replica r = replica_of(kind, row.job, {{"metadata", row.metadata}});
    CHECK(r.pod == row.metadata["name"].get<std::string>());
    CHECK(r.role == row.role);
    CHECK(r.rank == row.rank);
    CHECK(r.label == row.label);
    covered.insert(row.kind);
  }
  // Every registered kind has its rule and its rows.
  for (const auto& kind : all_kinds()) {
    CAPTURE(kind.name);
    CHECK(kind.replica != nullptr);
    CHECK(covered.count(kind.name) == 1);
  }
}

TEST_CASE("replica table: a pod without its kind's labels is named by its pod name, for every kind") {
  for (const auto& kind : all_kinds()) {
    CAPTURE(kind.name);
    REQUIRE(kind.replica != nullptr);
    const Replica r =
        replica_of(kind, "job", {{"metadata", {{"name", "job-extra"}, {"labels", {{"app", "x"}}}}}});
    CHECK(r.role.empty());
    CHECK_FALSE(r.rank);
    CHECK(r.label == "extra");
  }
}
