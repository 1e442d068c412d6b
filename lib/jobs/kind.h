// The job kinds trainctl knows. A JobKind is its kind's strategy: which API resource the job
// is, how its pods are labelled, which pod is the chief and which replica each pod is, and how
// status, duration and requested GPUs come from the job object. Everything kind-specific that
// list/get/logs/top/delete/wait need is in the kind's one file, with the upstream code its
// rules follow; what several kinds' rules share is in kinds/shared_rules.h. kinds/kinds.h and
// kinds/kinds.cpp are the registry (all_kinds); kind.cpp finds kinds in it by name and --type.
// Code outside the kinds' folder asks a JobKind, never which kind it is.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "jobs/progress.h"
#include "kube/resource.h"

namespace trainctl::jobs {

// The number of workers an elastic job may run with.
struct WorkerRange {
  long long min = 0;
  long long max = 0;
};

struct KindStatusRules;  // status_rules.h
struct SuspendRules;     // suspend.h
struct PodSummary;       // pod_summary.h
struct ReplicaPlace;     // replica.h

struct JobKind {
  // The kind's own name, unique among the kinds: its type, or batchjob for the Indexed Job
  // (kind_named; doctor's finding ids).
  std::string name;
  // What people call it: PyTorchJob, Volcano Job, Indexed Job (doctor's titles).
  std::string title;
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
  // Where no pod of the job carries chief_label=chief_value: label selectors ("k=v,k2=v2") of
  // the pods that are the chief, in priority order (TFJob: master, then worker index 0). A pod
  // of an earlier rule wins over any of a later one. Empty: the chief label alone marks it.
  std::vector<std::string> chief_fallbacks;
  // Label naming a pod's task within its job (Volcano: volcano.sh/task-spec); "" for kinds
  // without tasks. See chief_task.
  std::string pod_task_label;
  // Pod labels of this kind that older releases set as annotations only: where such a label
  // is absent, its annotation is read (pod_summary.cpp).
  std::vector<std::string> pod_labels_from_annotations;
  // The --type values (lower case) that name this kind: its type, then Arena's aliases. Empty
  // for a kind --type reaches only as one more kind of its type (kinds_for_type).
  std::vector<std::string> type_names;

  // How status and duration come from the job object (status_rules.h).
  const KindStatusRules* status_rules;
  // GPUs the replicas of the job's spec ask for (used before pods exist).
  long long (*spec_gpus)(const nlohmann::json& spec);
  // True when a job whose spec asks for no GPUs runs with its runtime's (Trainer v2's runtime
  // merge): list, get and top job then read the runtime (trainjob_runtime_gpus.h).
  bool gpus_from_runtime = false;
  // From the job's spec, the task whose pods alone may be the chief (Volcano: the first task);
  // "" when the chief label alone marks the chief.
  std::string (*chief_task)(const nlohmann::json& spec);
  // For a pod without the chief label, the value the kind reads from its name and other
  // labels (Volcano before v1.9); "" when it cannot tell. Null: the kind's pods all carry it.
  std::string (*chief_value_from_pod)(const PodSummary& pod);
  // For a kind whose jobs can be elastic, the range of workers an elastic job's spec allows
  // (PyTorchJob's elasticPolicy); nullopt for a job that is not elastic. Null: never elastic.
  std::optional<WorkerRange> (*elastic_workers)(const nlohmann::json& spec);
  // The container whose exit code is the replica's (the operator's default container name:
  // training-operator v1.9.0 pkg/apis/kubeflow.org/v1/pytorch_types.go "pytorch",
  // tensorflow_types.go "tensorflow", read by pkg/controller.v1/common/pod.go ReconcilePods).
  // "" or absent from a pod: its first container (mpi-operator and Volcano name none).
  std::string framework_container = "";
  // Pods of older operator releases, labelled otherwise (the kind's file says which releases):
  // the label selector of all of them in a namespace, and the labels they carry instead of the
  // ones this kind reads, {current key, older key}, the first older key found giving a current
  // key its value. legacy_pods.h turns such a pod into one of the current labels. "" and {}:
  // every release labels its pods as the kind reads them.
  std::string legacy_pod_selector = "";
  std::vector<std::pair<std::string, std::string>> legacy_pod_labels = {};
  // A pod's role and rank in its job, from the labels its operator sets (replica.h's
  // replica_of adds the pod's name and log label).
  ReplicaPlace (*replica)(const nlohmann::json& pod, const std::string& job);
  // The training progress the job object reports (TrainJob's status.trainerStatus); nullopt
  // when it reports none. Null: the kind's objects never report progress.
  std::optional<TrainingProgress> (*progress)(const nlohmann::json& job) = nullptr;
  // How `trainctl suspend`/`resume` suspend and resume its jobs (suspend.h: the field its API
  // has, or Volcano's bus Command). Null: its API has no suspend, and they refuse.
  const SuspendRules* suspend = nullptr;
  // Terms a list of every pod of the kind adds to its pod_job_label ("k=v", "!k"), read by the
  // list when no other listed kind reads that label: they leave out, on the server, pods that
  // carry the label but belong to other owners (the operator-free kind's `job-name` is on the
  // pods of every batch/v1 Job: a JobSet's, an MPIJob launcher's). "": every pod with the label.
  std::string pod_list_terms = "";

  // Label selector of the pods of one job: pod_job_label=NAME[,pod_extra_selector].
  std::string pod_selector(const std::string& job_name) const;
};

// The label selector of a list of every pod that carries `label` for `kinds`: the label, and
// the pod_list_terms of the one kind that reads it (none when several kinds share it).
std::string pods_list_selector(const std::vector<const JobKind*>& kinds, const std::string& label);

// The kinds, in the order list prints them when ages tie.
const std::vector<JobKind>& all_kinds();
// The kind's place in all_kinds().
size_t kind_order(const JobKind* kind);
// The kind of that name (JobKind::name). Throws Error for a name no kind has.
const JobKind& kind_named(std::string_view name);
// Resolves a --type value with Arena's aliases (the kinds' type_names), case-insensitively:
// pytorchjob|pytorch|py, mpijob|mpi|mj, volcanojob|volcano|vj, tfjob|tensorflow|tf, trainjob|tj. Throws
// UsageError naming the accepted values.
const JobKind& kind_for_type(std::string_view type);
// The --type values for help and errors, each kind's name with its aliases in brackets:
// "pytorchjob (pytorch, py), mpijob (mpi, mj), volcanojob (volcano, vj), tfjob (tensorflow, tf) or
// trainjob (tj)".
std::string type_names_text();
// Every kind's title, in registry order: "PyTorchJob, MPIJob, Volcano Job, Indexed Job, TFJob or
// TrainJob".
std::string kind_titles_text();

}  // namespace trainctl::jobs
