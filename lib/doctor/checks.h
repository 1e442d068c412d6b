// The checks of doctor, each in two steps over the one round of requests (probe.h): ask_X
// adds what it needs to read, judge_X turns the answers into findings. Internal to
// lib/doctor (doctor.cpp runs them in this order).
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <vector>

#include "doctor/doctor.h"
#include "doctor/probe.h"
#include "doctor/report.h"
#include "submit/submit_kind.h"

namespace trainctl::doctor {

struct Context {
  const DoctorOptions& options;
  // The kinds trainctl submits, in the order the report lists them, and the one whose
  // readiness decides the exit code.
  std::vector<const submit::SubmitKind*> kinds;
  const submit::SubmitKind* default_kind_ = nullptr;
  // The job each kind's submit would create (templates rendered for a small job, labelled into
  // a Kueue LocalQueue where Kueue manages the kind): what the dry-run creates send.
  std::map<const jobs::JobKind*, nlohmann::json> dry_run_jobs;
  const submit::SubmitKind& default_kind() const { return *default_kind_; }
};

// The job a kind's submit would create for `trainctl submit <kind> --name trainctl-doctor
// --image busybox true` (--kueue-queue trainctl-doctor where Kueue has an integration for the
// kind), named by generateName so that no existing job is in the way.
nlohmann::json dry_run_job(const submit::SubmitKind& kind, const std::string& ns, const render::TemplateSet& t);
// A kind's name in finding ids (JobKind::name): pytorchjob, mpijob, volcanojob, tfjob, batchjob
// for the operator-free batch/v1 Job of submit pytorch --operator none.
inline const std::string& kind_id(const submit::SubmitKind& kind) { return kind.job.name; }
// A kind's name in the report (JobKind::title): its Kind, "Volcano Job", "Indexed Job".
inline const std::string& kind_title(const submit::SubmitKind& kind) { return kind.job.title; }
// The submit command of a kind: "trainctl submit pytorch --operator none".
std::string submit_command(const submit::SubmitKind& kind);

// The LocalQueue name the dry-run jobs are labelled with.
inline constexpr const char* kDryRunQueue = "trainctl-doctor";

// Job APIs: training-operator (PyTorchJob, TFJob), MPIJob v2beta1 or v1, Volcano, Kubeflow
// Trainer v2 (TrainJob, its API generation, the runtimes), JobSet, batch/v1 Job.
void ask_job_apis(Probe& p, const Context& c);
void judge_job_apis(const Probe& p, const Context& c, Report& r);
// The Kubeflow Trainer release whose TrainJob and ClusterTrainingRuntime CRDs (null: not read)
// these are, from the fields each release added: "v2.0", "v2.1", "v2.2", "v2.3 or later",
// "v2.2 or later" (no runtime CRD), "" without the TrainJob CRD. `markers` gets each field seen.
std::string trainer_generation(const nlohmann::json& trainjob_crd, const nlohmann::json& runtime_crd,
                               nlohmann::json& markers);
// Gang scheduling and queues: coscheduling PodGroups, Volcano and its Queues, Kueue with its
// LocalQueues and the integrations its webhook applies (from the dry-run creates).
void ask_scheduling(Probe& p, const Context& c);
void judge_scheduling(const Probe& p, const Context& c, Report& r);
// GPU resources of the nodes.
void ask_gpus(Probe& p, const Context& c);
void judge_gpus(const Probe& p, const Context& c, Report& r);
// Prometheus and the GPU exporter: the Service lists in the round, then one query.
void ask_metrics(Probe& p, const Context& c);
void judge_metrics(kube::Client& client, const Probe& p, const Context& c, Report& r);
// What the current user may do, as `kubectl auth can-i` asks (SelfSubjectAccessReviews).
void ask_permissions(Probe& p, const Context& c);
void judge_permissions(const Probe& p, const Context& c, Report& r);

// The dry-run creates of the kinds' jobs (one per kind), and the finding of the default
// kind's: what the API server's admission said of the job its submit would send.
void ask_dry_runs(Probe& p, const Context& c);
void judge_dry_run(const Probe& p, const Context& c, Report& r);
const Answer& dry_run_answer(const Probe& p, const submit::SubmitKind& kind);

}  // namespace trainctl::doctor
