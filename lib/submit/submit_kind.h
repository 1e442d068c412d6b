// How `trainctl submit` makes one job kind: a strategy per kind (lib/submit/kinds/), chosen
// from the submit command and --api. It holds the kind's command (name, help, flags), and what
// the plan, the manifests, the server facts and the create step need to know of the kind, so
// that the shared code asks the kind instead of comparing job kinds. Adding a kind: a file in
// lib/submit/kinds/, its line in kinds/kinds.def (the registry), its templates/<dir>/job.yaml.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "jobs/kind.h"
#include "kube/client.h"
#include "render/templates.h"
#include "submit/flag_set.h"
#include "submit/options.h"
#include "submit/plan.h"

namespace trainctl::submit {

struct ServerFacts;

// Kueue's job integration of a kind, and what trainctl says where a cluster's Kueue does not
// enable it (create.cpp checks the create answer for the suspend Kueue's webhook sets).
struct KueueIntegration {
  std::string framework;      // its name in Kueue's integrations.frameworks: "kubeflow.org/pytorchjob"
  std::string suspend_field;  // where its webhook suspends the job: "spec.runPolicy.suspend"
  // The first Kueue release whose shipped configuration leaves it off; "" = on in every
  // release from v0.9.0 to v0.19.2 (config/components/manager/controller_manager_config.yaml).
  std::string off_by_default_from;
  std::string instead;  // what to submit where it is off: "as an MPIJob (trainctl submit mpi)"
};

// An optional field of a kind's CRD that submit sends when the installed CRD has it
// (SubmitKind::read_crd) and doctor reports: "spec.nprocPerNode", the ServerFacts flag it sets,
// and the release that added it ("training-operator v1.7").
struct CrdField {
  const char* field;
  bool ServerFacts::*fact;
  const char* since;
};

// Another controller's API of a kind's resource at another version, which doctor names when
// the cluster serves it instead (the training-operator's own MPIJob at kubeflow.org/v1).
struct OtherVersion {
  std::string version;  // "" = none
  std::string result;   // doctor's finding, its reason and fix
  std::string reason;
  std::string fix;
};

// What --worker-image means for a kind.
enum class WorkerImage {
  Refused,      // not a flag of the kind's command
  Workers,      // the image of the Worker replicas; the master keeps --image
  SameAsImage,  // every pod runs one template: it must equal --image
};

class SubmitKind {
 public:
  // The kind's facts and plan rules, as data.
  struct Rules {
    std::string command;  // its submit command (submit <command>), or the command that makes it
    // Its command's alias, one-line help and --help examples. A kind without help has no
    // command of its own: another kind's resolve() makes it (submit pytorch --api none).
    std::string alias;
    std::string help;
    std::string examples;
    std::string template_dir;        // templates/<dir>/job.yaml
    std::string not_installed_hint;  // after "<Kind (group/version)> is not installed on this cluster: "
    OtherVersion other_version = {};
    // Labels on the job and its pods besides standard_labels (jobs::JobKind's selectors use them).
    std::vector<KeyValue> pod_labels;

    // Flags only some kinds take; the others refuse them, naming the command that does. (A
    // flag of one command alone is refused by the other commands by name: SubmitKind::flags.)
    bool code_flags = true;       // --tensorboard, --sync-mode, --sync-source
    WorkerImage worker_image = WorkerImage::Refused;

    bool image_required = true;    // false: each task may give its own (Volcano)
    bool command_required = true;  // Arena's pytorchjob and mpijob: "not found command args"
    std::string default_clean_pod_policy = "Running";
    bool shm = true;         // a /dev/shm volume (2Gi unless --share-memory; none with --gputopology)
    int launcher_pods = 0;   // pods besides the workers, without GPUs, created once the workers run
    bool kube_queue = true;  // a bare --queue is Arena's kube-queue switch (not Volcano's --queue)
    // Why --gang, --queue, --min-available, --schedule-timeout are refused; "" = they are not.
    std::string no_gang_reason;
    // Why --kueue-queue is refused; "" = Kueue manages the kind (its jobframework
    // integrations: batch/job, kubeflow pytorchjob/tfjob, mpijob).
    std::string no_kueue_reason;
    // The Kueue integration that manages the kind (empty framework: none, see no_kueue_reason).
    KueueIntegration kueue = {};
    bool reads_server_version = false;  // server_facts.h: the Kubernetes release matters
    // Its API is built into Kubernetes (batch/v1): served everywhere, without a CRD.
    bool built_in_api = false;
    // A Kubeflow Trainer v2 job: it runs on a (Cluster)TrainingRuntime, as a JobSet, so a
    // cluster serves it only with both (doctor's readiness and permissions).
    bool runs_on_runtime = false;
    // The optional fields of its CRD that read_crd reads by default (doctor lists them).
    std::vector<CrdField> crd_fields;
    // Flags the smallest command line making this kind gives besides the common ones
    // (submit pytorch --operator none; submit trainjob --runtime torch-distributed): doctor
    // names that command line and dry-runs what it renders.
    std::vector<KeyValue> minimal_flags;
  };

  SubmitKind(const jobs::JobKind& job, Rules rules);
  SubmitKind(const SubmitKind&) = delete;
  SubmitKind& operator=(const SubmitKind&) = delete;
  virtual ~SubmitKind() = default;

  const jobs::JobKind& job;  // jobs::kind_named: the resource, labels and statuses list/get use
  const Rules rules;

  // Its command's flags, bound to `options` (whose kind becomes this one): its own (add_flags),
  // then, hidden, those only other submit commands take, which check_flags refuses by name
  // (SubmitOptions::foreign_flags).
  FlagSet flags(SubmitOptions& options) const;
  // Its own flags only.
  FlagSet own_flags(SubmitOptions& options) const;
  // The kind a command line of this kind's command makes: this one, after refusing flags of
  // other commands (--operator, --worker-image), unless the kind chooses another (submit
  // pytorch --api). Throws UsageError.
  virtual const SubmitKind& resolve(const SubmitOptions& options) const;
  // Before the plan, without --dry-run: adapts the options to what the cluster serves (submit
  // pytorch where only Trainer v2 is) and returns a line saying so, or "". `client` is only
  // called by a kind that asks.
  virtual std::string adapt_to_cluster(SubmitOptions&,
                                       const std::function<kube::Client&()>& /*client*/) const {
    return "";
  }

  // Names derived from the job's name (pods, host names) that must fit in 63 characters.
  virtual std::vector<std::string> derived_names(const Plan& plan) const = 0;
  // What only this kind plans of its pods, right after plan_pod (torchrun's settings, an
  // elastic PyTorchJob's range of workers: kinds/torchrun.h).
  virtual void plan_replicas(const SubmitOptions&, Plan&) const {}
  // The gang size when --min-available is not given: every pod by default (an elastic
  // PyTorchJob's --min-workers; an MPIJob without the launcher that waits for the workers).
  virtual int default_min_available(const Plan& plan) const;
  // The replicas and their gang: the workers plus runPolicy.schedulingPolicy by default
  // (plan_worker_gang), Volcano's tasks.
  virtual void plan_gang(const SubmitOptions& options, Plan& plan) const;
  // What only this kind plans (after plan_scheduling, before Arena's implicit annotations).
  virtual void plan_kind(const SubmitOptions&, Plan&) const {}
  // The job's pods (Plan::expected_pods): the workers and the launcher by default.
  virtual int expected_pods(const SubmitOptions& options, const Plan& plan) const;
  // GPUs the job requests (Arena's requestGPUsOfJobOwner): --gpus on every pod but the
  // launcher by default.
  virtual long long requested_gpus(const Plan& plan) const;

  // The job (first) and the objects only this kind adds, from the templates.
  virtual std::vector<nlohmann::json> build(const Plan& plan, const render::TemplateSet& templates) const = 0;
  // Whether an object build() returns beside the job must exist before the job is created
  // (the job's admission reads it): create.h creates it first, then makes the job its owner.
  virtual bool created_before_job(const nlohmann::json& /*object*/) const { return false; }
  // Labels of the pod TensorBoard's logs are written next to (the chief).
  virtual std::vector<KeyValue> chief_pod_labels(const Plan& plan) const = 0;

  // Whether the kind's CRD is read before rendering, and what is read from it: by default,
  // whether it declares each of Rules::crd_fields.
  virtual bool reads_crd(const Plan&) const { return false; }
  virtual void read_crd(const nlohmann::json& crd, ServerFacts& facts) const;
  // Adapts the plan to facts only this kind depends on; notes for the user are appended.
  virtual void apply_facts(const ServerFacts&, Plan&, std::vector<std::string>& /*notes*/) const {}
  // Reads what else the kind needs from the cluster before anything is created (the
  // TrainJob's runtime); throws UsageError when the job cannot be created.
  virtual void check_cluster(kube::Client&, Plan&) const {}

 protected:
  // The flags of its command (submit/flags.h has the shared ones), in --help order.
  virtual void add_flags(FlagSet&, SubmitOptions&) const {}
};

// Every submit kind, in the order of kinds/kinds.def (the registry).
const std::vector<const SubmitKind*>& submit_kinds();
// The kinds that have a command of their own (Rules::help), in the order `submit` lists them.
std::vector<const SubmitKind*> submit_commands();
// The kind whose command is `command` (pytorch, mpi...); throws Error when none is.
const SubmitKind& submit_kind_of_command(const std::string& command);
// "submit pytorch and submit tf": the commands of the kinds `pred` holds for, for messages.
std::string submit_commands_where(const std::function<bool(const SubmitKind&)>& pred);

// The kind of the command a submit command line ran (SubmitOptions::kind, set by the command's
// flags; submit pytorch's when unset), before its options are resolved.
const SubmitKind& command_kind(const SubmitOptions& options);
// The kind a submit command line asks for: its command's kind, resolved with the options
// (SubmitKind::resolve).
const SubmitKind& submit_kind_for(const SubmitOptions& options);
// The submit kind of a job kind: the registered kind whose JobKind it is; throws Error when none.
const SubmitKind& submit_kind_for(const jobs::JobKind& job);
// The options the kind's smallest command line gives (Rules::minimal_flags, parsed by the
// flags of the kind's command), for a job named `name` running `command` in `image`.
SubmitOptions minimal_options(const SubmitKind& kind, const std::string& name, const std::string& image,
                              const std::string& command);

}  // namespace trainctl::submit
