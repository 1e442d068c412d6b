#include "jobs/kind.h"

#include "core/errors.h"
#include "core/text.h"

namespace trainctl::jobs {

std::string JobKind::pod_selector(const std::string& job_name) const {
  std::string s = pod_job_label + "=" + job_name;
  if (!pod_extra_selector.empty()) s += "," + pod_extra_selector;
  return s;
}

const std::vector<JobKind>& all_kinds() {
  static const std::vector<JobKind> kinds = {
      {Trainer::PyTorch, "pytorchjob", "PYTORCHJOB", "PyTorchJob",
       {"kubeflow.org", "v1", "pytorchjobs", "PyTorchJob"}, "",
       "training.kubeflow.org/job-name", "training.kubeflow.org/operator-name=pytorchjob-controller",
       "training.kubeflow.org/replica-type", "master"},
      {Trainer::MPI, "mpijob", "MPIJOB", "MPIJob", {"kubeflow.org", "v2beta1", "mpijobs", "MPIJob"}, "",
       "training.kubeflow.org/job-name", "training.kubeflow.org/operator-name=mpi-operator",
       "training.kubeflow.org/job-role", "launcher"},
      {Trainer::Volcano, "volcanojob", "VOLCANOJOB", "VolcanoJob",
       {"batch.volcano.sh", "v1alpha1", "jobs", "Job"}, "", "volcano.sh/job-name", "", "volcano.sh/task-index",
       "0"},
      // Operator-free PyTorch: an Indexed batch/v1 Job plus a headless Service, made by trainctl.
      // Its pods are found by the job controller's legacy `job-name` label, which every
      // Kubernetes release sets (batch.kubernetes.io/job-name only from 1.27); the chief by its
      // completion index, a label from 1.28 and an annotation before (pod_summary.cpp).
      {Trainer::PyTorchNoOperator, "pytorchjob", "PYTORCHJOB", "PyTorchJob", {"batch", "v1", "jobs", "Job"},
       "app=pytorchjob,trainctl.io/operator=none", "job-name", "", "batch.kubernetes.io/job-completion-index",
       "0"},
  };
  return kinds;
}

const JobKind& kind_for(Trainer trainer) {
  for (const auto& k : all_kinds())
    if (k.trainer == trainer) return k;
  throw Error("unknown trainer");
}

const JobKind& kind_for_type(std::string_view type) {
  const std::string t = ascii_lower(std::string(type));
  if (t == "pytorchjob" || t == "pytorch" || t == "py") return kind_for(Trainer::PyTorch);
  if (t == "mpijob" || t == "mpi" || t == "mj") return kind_for(Trainer::MPI);
  if (t == "volcanojob" || t == "volcano" || t == "vj") return kind_for(Trainer::Volcano);
  throw UsageError("unknown job type \"" + std::string(type) +
                   "\": use pytorchjob (pytorch, py), mpijob (mpi, mj) or volcanojob (volcano, vj)");
}

}  // namespace trainctl::jobs
