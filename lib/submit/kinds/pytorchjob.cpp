// PyTorchJob (kubeflow.org/v1, training-operator): Master x1 + Worker x(workers-1); elastic
// (spec.elasticPolicy, pytorch_elastic.cpp): Worker x(workers), no Master.
#include "core/errors.h"
#include "submit/api_choice.h"
#include "submit/flags.h"
#include "submit/job_template.h"
#include "submit/kind_part.h"
#include "submit/kinds/kinds.h"
#include "submit/kinds/torchrun.h"
#include "submit/manifest_parts.h"
#include "submit/parse.h"
#include "submit/server_facts.h"
#include "submit/trainer_runtimes.h"

namespace trainctl::submit::kinds {

using nlohmann::json;

namespace {

class PyTorchJobKind final : public SubmitKind {
 public:
  PyTorchJobKind()
      : SubmitKind(
            jobs::kind_named("pytorchjob"),
            {.command = "pytorch",
             .alias = "pytorchjob",
             .help = "Submit a PyTorchJob (kubeflow.org/v1)",
             .examples =
                 "  trainctl submit pytorch --name=mnist --gpus=1 --workers=3 --image=pytorch/pytorch "
                 "\"python "
                 "train.py\"\n"
                 "  trainctl submit pytorch --name=mnist --workers=2 --operator none --image=pytorch/pytorch "
                 "\"torchrun --nnodes=2 --node_rank=$RANK --master_addr=$MASTER_ADDR train.py\"\n"
                 "  trainctl submit pytorch --name=mnist --image=pytorch/pytorch --dry-run \"python "
                 "train.py\" "
                 "| kubectl apply -f -\n",
             .template_dir = "pytorch",
             .not_installed_hint = "install the training-operator, or use --operator none",
             .worker_image = WorkerImage::Workers,
             // kueue pkg/controller/jobs/kubeflow/jobs/pytorchjob, kubeflowjob IsSuspended.
             .kueue = {.framework = "kubeflow.org/pytorchjob",
                       .suspend_field = "spec.runPolicy.suspend",
                       .off_by_default_from = "v0.19.0",
                       .instead = "submit it with --operator none (a batch/v1 Job), as an MPIJob "
                                  "(trainctl submit mpi) or as a TrainJob"},
             .crd_fields = {
                 {"spec.nprocPerNode", &ServerFacts::nproc_per_node_field, "training-operator v1.7"},
                 {"spec.elasticPolicy", &ServerFacts::elastic_policy_field, "training-operator v1.4"},
                 {kScheduleTimeoutField, &ServerFacts::schedule_timeout_field, "training-operator v1.6"}}}) {}

  // --api none (--operator none) is an Indexed Job, --api trainer a TrainJob.
  const SubmitKind& resolve(const SubmitOptions& options) const override {
    const TorchrunOptions& o = kind_part<TorchrunOptions>(options);
    if (!o.operator_.empty() && o.operator_ != "none" && o.operator_ != "training-operator")
      throw UsageError("invalid --operator " + dq(o.operator_) + ": use none or training-operator");
    if (!o.api.empty() && o.api != "none" && o.api != "training-operator" && o.api != "trainer")
      throw UsageError("invalid --api " + dq(o.api) + ": use trainer, training-operator or none");
    if (!o.api.empty() && !o.operator_.empty() && o.api != o.operator_)
      throw UsageError("--api " + o.api + " and --operator " + o.operator_ + " disagree: give --api only");
    const std::string api = o.api.empty() ? o.operator_ : o.api;
    if (api == "none") return pytorch_none();
    if (api == "trainer") return trainjob();
    return *this;
  }

  // Without --api or --operator: a TrainJob where the cluster serves only Kubeflow Trainer v2
  // (api_choice.h).
  std::string adapt_to_cluster(SubmitOptions& options,
                               const std::function<kube::Client&()>& client) const override {
    TorchrunOptions& o = set_kind_part<TorchrunOptions>(options);
    if (!o.api.empty() || !o.operator_.empty() || !serves_only_trainer_v2(client())) return "";
    o.api = "trainer";
    return std::string(
               "This cluster serves Kubeflow Trainer v2 and no PyTorchJob: submitting a TrainJob on the ") +
           "ClusterTrainingRuntime " + kTorchDistributed + " (--api chooses)";
  }

  void plan_replicas(const SubmitOptions& o, Plan& p) const override {
    plan_torchrun(o, p);
    plan_elastic(o, p);
  }

  // An elastic job trains once --min-workers of its Worker pods run (PET_NNODES min:max).
  int default_min_available(const Plan& p) const override {
    const ElasticPlan& e = kind_part<ElasticPlan>(p);
    return e.elastic() ? e.min_workers : SubmitKind::default_min_available(p);
  }

  std::vector<std::string> derived_names(const Plan& p) const override {
    // An elastic job's Workers are numbered up to --max-workers - 1.
    const ElasticPlan& e = kind_part<ElasticPlan>(p);
    if (e.elastic()) return {p.name + "-worker-" + std::to_string(e.max_workers - 1)};
    std::vector<std::string> names = {p.name + "-master-0"};
    if (p.workers > 1) names.push_back(p.name + "-worker-" + std::to_string(p.workers - 2));
    return names;
  }

  std::vector<json> build(const Plan& p, const render::TemplateSet& t) const override {
    const JobTemplate job_yaml(t, p.template_kind);
    const TorchrunPlan& torchrun = kind_part<TorchrunPlan>(p);
    const ElasticPlan& e = kind_part<ElasticPlan>(p);
    json v = job_values(p);
    // An operator before v1.7 has no spec.nprocPerNode (server_facts.h): torchrun reads the
    // same setting from PET_NPROC_PER_NODE, which such an operator does not set itself.
    v["nproc_per_node"] = torchrun.nproc_per_node_env ? json() : or_null(torchrun.nproc_per_node);
    json extra_env = json::array();
    if (torchrun.nproc_per_node_env)
      extra_env.push_back({{"name", "PET_NPROC_PER_NODE"}, {"value", torchrun.nproc_per_node}});
    // pytorch_elastic.cpp: spec.elasticPolicy, Workers only.
    const bool master = !e.elastic();
    const int worker_replicas = e.elastic() ? p.workers : p.workers - 1;
    if (e.elastic())
      v["elastic"] = {{"min_replicas", e.min_workers},
                      {"max_replicas", e.max_workers},
                      {"rdzv_backend", e.rdzv_backend},
                      {"rdzv_port", e.rdzv_port},
                      {"max_restarts", e.max_restarts ? json(*e.max_restarts) : json()}};
    json master_pod;
    if (master) {
      PodRole role{"pytorch", ""};
      role.extra_env = extra_env;
      master_pod = pod_template(p, t, role);
      job_yaml.offer("master_template_json", master_pod, v);
    }
    json worker_pod;
    if (worker_replicas > 0) {
      PodRole role{"pytorch", "", p.worker_image};
      role.extra_env = extra_env;
      v["worker_replicas"] = worker_replicas;
      worker_pod = pod_template(p, t, role);
      job_yaml.offer("worker_template_json", worker_pod, v);
    }
    json job = job_yaml.render(v);
    if (e.elastic() &&
        (!job["spec"].contains("elasticPolicy") || job["spec"]["pytorchReplicaSpecs"].contains("Master")))
      throw Error(
          job_yaml.source() +
          " renders no elastic job: write spec.elasticPolicy in an {{#elastic}} section and the Master "
          "in {{^elastic}} (templates/pytorch/job.yaml)");
    if (master)
      job_yaml.put_pod_template(job, "/spec/pytorchReplicaSpecs/Master", "master_template_json",
                                std::move(master_pod));
    if (worker_replicas > 0)
      job_yaml.put_pod_template(job, "/spec/pytorchReplicaSpecs/Worker", "worker_template_json",
                                std::move(worker_pod));
    return {std::move(job)};
  }

  std::vector<KeyValue> chief_pod_labels(const Plan& p) const override {
    // Without a Master (an elastic job) worker-0 is the chief, as PET_RDZV_ENDPOINT's host.
    if (kind_part<ElasticPlan>(p).elastic())
      return {{"training.kubeflow.org/job-name", p.name},
              {"training.kubeflow.org/replica-type", "worker"},
              {"training.kubeflow.org/replica-index", "0"}};
    return {{"training.kubeflow.org/job-name", p.name}, {"training.kubeflow.org/replica-type", "master"}};
  }

  bool reads_crd(const Plan& p) const override {
    return !kind_part<TorchrunPlan>(p).nproc_per_node.empty() || p.schedule_timeout_seconds.has_value() ||
           kind_part<ElasticPlan>(p).elastic();
  }

  void apply_facts(const ServerFacts& facts, Plan& p, std::vector<std::string>& notes) const override {
    const bool elastic = kind_part<ElasticPlan>(p).elastic();
    TorchrunPlan& torchrun = set_kind_part<TorchrunPlan>(p);
    // spec.elasticPolicy came with training-operator v1.4 (pytorch_types.go ElasticPolicy).
    if (elastic && !facts.elastic_policy_field)
      throw UsageError(
          "the installed PyTorchJob CRD has no spec.elasticPolicy (training-operator before v1.4): "
          "drop --min-workers and --max-workers, or upgrade the training-operator");
    if (facts.nproc_per_node_field || torchrun.nproc_per_node.empty()) return;
    torchrun.nproc_per_node_env = true;
    // training-operator before v1.7 (pkg/controller.v1/pytorch/envvar.go at v1.6.0) sets no
    // PET_NNODES, PET_NODE_RANK or PET_MASTER_*: torchrun needs them from its arguments.
    // An elastic job gets PET_NNODES and PET_RDZV_* from elastic.go there too.
    std::string note =
        "the installed PyTorchJob CRD has no spec.nprocPerNode (training-operator before v1.7): "
        "--nproc-per-node is passed as PET_NPROC_PER_NODE";
    if (!elastic)
      note +=
          "; that operator sets no other PET_* variable, so give torchrun --nnodes=$WORLD_SIZE "
          "--node_rank=$RANK --master_addr=$MASTER_ADDR --master_port=$MASTER_PORT";
    notes.push_back(std::move(note));
  }

 protected:
  void add_flags(FlagSet& f, SubmitOptions& o) const override {
    add_training_flags(f, o, rules, [&] {
      add_torchrun_flags(f, o, rules);
      add_elastic_flags(f, o);
    });
  }
};

}  // namespace

const SubmitKind& pytorchjob() {
  static const PyTorchJobKind kind;
  return kind;
}

}  // namespace trainctl::submit::kinds
