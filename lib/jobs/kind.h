// The job kinds trainctl knows: which API resource each is, how its pods are labelled, which
// pod is the chief. Everything kind-specific that list/get/logs/top/delete need starts here.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "kube/resource.h"

namespace trainctl::jobs {

enum class Trainer { PyTorch, MPI, Volcano, PyTorchNoOperator };

struct JobKind {
  Trainer trainer;
  std::string type;          // Arena's type and `app` label value: pytorchjob, mpijob, volcanojob
  std::string trainer_name;  // TRAINER column: PYTORCHJOB, MPIJOB, VOLCANOJOB
  std::string created_by;    // Arena's `createdBy` label: PyTorchJob, MPIJob, VolcanoJob
  kube::Resource resource;   // the job object
  // Label selector (unencoded) for listing this kind's job objects. Empty = all objects of the
  // resource. The operator-free kind shares batch/v1 Jobs with others, so it filters.
  std::string list_selector;
  // Label that names a pod's job ("training.kubeflow.org/job-name", "volcano.sh/job-name").
  std::string pod_job_label;
  // Extra selector terms that make pods unique to this kind (e.g. the operator name).
  std::string pod_extra_selector;
  // Label and value that mark the chief pod (master, launcher, task index 0, completion 0).
  std::string chief_label;
  std::string chief_value;

  // Label selector of the pods of one job: pod_job_label=NAME[,pod_extra_selector].
  std::string pod_selector(const std::string& job_name) const;
};

// The four kinds, in the order list prints them when ages tie.
const std::vector<JobKind>& all_kinds();
const JobKind& kind_for(Trainer trainer);
// Resolves a --type value with Arena's aliases, case-insensitively: pytorchjob|pytorch|py,
// mpijob|mpi|mj, volcanojob|volcano|vj. Throws UsageError naming the accepted values.
const JobKind& kind_for_type(std::string_view type);

}  // namespace trainctl::jobs
