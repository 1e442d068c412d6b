// A pod's place in its job for `logs --all`: its role (replica type, MPI job role, Volcano
// task) and rank (replica index), read from the labels each operator sets, and the short
// label its log lines are prefixed with ("worker-1").
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "jobs/kind.h"

namespace trainctl::jobs {

struct Replica {
  std::string pod;
  std::string role;  // lower case: master, worker, ps, chief, evaluator, launcher, a Volcano task
  std::optional<long long> rank;
  std::string label;  // ROLE-RANK, or the pod name without "JOB-" when the role is unknown
};

// PyTorchJob, TFJob: training.kubeflow.org/replica-type and replica-index. MPIJob: job-role
// (launcher, worker) and replica-index (the launcher: 0). Volcano: volcano.sh/task-spec and
// task-index (older releases: the task and index in the pod name JOB-TASK-INDEX). Indexed
// Job (operator-free PyTorch): completion index 0 is master-0, index i worker-(i-1), as the
// PyTorchJob it stands for would name them. TrainJob: the JobSet's replicated job
// (jobset.sigs.k8s.io/replicatedjob-name: node, launcher, dataset-initializer,
// model-initializer) and completion index: node-0, node-1, launcher-0.
Replica replica_of(const JobKind& kind, const std::string& job, const nlohmann::json& pod);

struct ReplicaFilter {
  std::string role;  // "" = any; compared case-insensitively
  std::optional<long long> rank;
  bool matches(const Replica& r) const;
};

// The order replicas are printed in without -f: chief-like roles first (chief, master,
// launcher), then ps, worker, evaluator, other roles by name; by rank within a role.
bool replica_before(const Replica& a, const Replica& b);

}  // namespace trainctl::jobs
