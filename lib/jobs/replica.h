// A pod's place in its job for `logs --all`: its role (replica type, MPI job role, Volcano
// task) and rank (replica index), read from the labels each operator sets, and the short
// label its log lines are prefixed with ("worker-1").
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "jobs/kind.h"

namespace trainctl::jobs {

// A pod's role and rank as its kind reads them from the pod (JobKind::replica).
struct ReplicaPlace {
  std::string role;  // as the labels spell it; replica_of lower-cases it
  std::optional<long long> rank;
};

// For the kinds' replica rules: the pod's label KEY, else its annotation KEY (releases that set
// it as an annotation only), else "".
std::string replica_label(const nlohmann::json& pod, const std::string& key);
// A replica index written in decimal digits; nullopt for anything else.
std::optional<long long> replica_number(const std::string& text);

struct Replica {
  std::string pod;
  std::string role;  // lower case: master, worker, ps, chief, evaluator, launcher, a Volcano task
  std::optional<long long> rank;
  std::string label;  // ROLE-RANK, or the pod name without "JOB-" when the role is unknown
};

// The pod's role and rank by its kind's rule (JobKind::replica; each kind's file says which
// labels it reads), and its label: ROLE-RANK, ROLE without a rank, else the pod's name without
// "JOB-".
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
