// logs --all: a pod's role, rank and label for each kind, and the --role/--rank filter.
#include <catch2/catch.hpp>

#include "jobs/kind.h"
#include "jobs/replica.h"

using namespace trainctl::jobs;
using nlohmann::json;

namespace {
json labelled_pod(const std::string& name, json labels) {
  return {{"metadata", {{"name", name}, {"labels", std::move(labels)}}}};
}
}  // namespace

TEST_CASE("replicas of a PyTorchJob and a TFJob come from replica-type and replica-index") {
  const auto& k = kind_named("pytorchjob");
  auto r = replica_of(k, "dist",
                      labelled_pod("dist-worker-1", {{"training.kubeflow.org/replica-type", "worker"},
                                                     {"training.kubeflow.org/replica-index", "1"}}));
  CHECK(r.pod == "dist-worker-1");
  CHECK(r.role == "worker");
  CHECK(r.rank == 1);
  CHECK(r.label == "worker-1");
  auto t = replica_of(kind_named("tfjob"), "tf",
                      labelled_pod("tf-ps-0", {{"training.kubeflow.org/replica-type", "PS"},
                                               {"training.kubeflow.org/replica-index", "0"}}));
  CHECK(t.label == "ps-0");
}

TEST_CASE("an MPI launcher is rank 0; Volcano ranks come from the label or the pod name") {
  auto l = replica_of(kind_named("mpijob"), "mpi",
                      labelled_pod("mpi-launcher-x7k2p", {{"training.kubeflow.org/job-role", "launcher"}}));
  CHECK(l.label == "launcher-0");
  auto v = replica_of(kind_named("volcanojob"), "vj",
                      labelled_pod("vj-trainer-3", {{"volcano.sh/task-spec", "trainer"}}));
  CHECK(v.role == "trainer");
  CHECK(v.rank == 3);
  auto none = replica_of(kind_named("batchjob"), "p",
                         labelled_pod("p-2-abcde", {{"batch.kubernetes.io/job-completion-index", "2"}}));
  CHECK(none.label == "worker-1");
  auto unknown = replica_of(kind_named("pytorchjob"), "dist", labelled_pod("dist-extra", json::object()));
  CHECK(unknown.label == "extra");
  CHECK_FALSE(unknown.rank);
}

TEST_CASE("--role and --rank filter replicas; the order puts the chief first") {
  const auto& k = kind_named("pytorchjob");
  auto m = replica_of(k, "d",
                      labelled_pod("d-master-0", {{"training.kubeflow.org/replica-type", "master"},
                                                  {"training.kubeflow.org/replica-index", "0"}}));
  auto w0 = replica_of(k, "d",
                       labelled_pod("d-worker-0", {{"training.kubeflow.org/replica-type", "worker"},
                                                   {"training.kubeflow.org/replica-index", "0"}}));
  auto w1 = replica_of(k, "d",
                       labelled_pod("d-worker-1", {{"training.kubeflow.org/replica-type", "worker"},
                                                   {"training.kubeflow.org/replica-index", "1"}}));
  ReplicaFilter any;
  CHECK(any.matches(m));
  ReplicaFilter workers{"Worker", std::nullopt};
  CHECK_FALSE(workers.matches(m));
  CHECK(workers.matches(w1));
  ReplicaFilter rank0{"", 0};
  CHECK(rank0.matches(m));
  CHECK(rank0.matches(w0));
  CHECK_FALSE(rank0.matches(w1));
  CHECK(replica_before(m, w0));
  CHECK(replica_before(w0, w1));
  CHECK_FALSE(replica_before(w1, m));
}
