// TFJob (kubeflow.org/v1, training-operator): PS x --ps, Worker x --workers, Chief x1 with
// --chief, Evaluator x1 with --evaluator (Arena's charts/tfjob and
// pkg/argsbuilder/submit_tfjob.go), each type with its own image, port, resources and node
// selector.
//
// The operator (v1.9.0 pkg/apis/kubeflow.org/v1/tensorflow_types.go, tensorflow_defaults.go)
// gives TF_CONFIG and the port named tfjob-port (2222 unless the pod names one) to the
// container named `tensorflow`, and reads TF_CONFIG's addresses from that port: the pods'
// container has that name and that port, 2222 unless --<type>-port. Arena instead picks a
// free port when none is given.
#include "submit/kinds/tfjob.h"

#include <algorithm>

#include "core/errors.h"
#include "core/text.h"
#include "submit/flags.h"
#include "submit/job_template.h"
#include "submit/kind_part.h"
#include "submit/kinds/kinds.h"
#include "submit/manifest_parts.h"
#include "submit/parse.h"
#include "submit/server_facts.h"

namespace trainctl::submit::kinds {

using nlohmann::json;

namespace {

constexpr int kTFDefaultPort = 2222;                // TFJobDefaultPort
constexpr const char* kTFPortName = "tfjob-port";   // TFJobDefaultPortName
constexpr const char* kTFContainer = "tensorflow";  // TFJobDefaultContainerName

struct TFReplicaType {  // one replica type: PS, Worker, Chief, Evaluator
  std::string type;
  int replicas = 1;
  std::string image;  // "": the plan's image
  int port = 0;       // container port; 0: the operator's default
  std::string cpu;    // the plan's --cpu unless the type's own flag
  std::string memory;
  int gpus = 0;
  std::vector<KeyValue> selectors;  // the plan's --selector unless the type's own flag
  std::string restart_policy;       // the replica's restartPolicy
};

// The TFJob's part of the plan (kind_part.h).
struct TFPlan {
  std::vector<TFReplicaType> replica_types;  // in the order the job lists them
  std::string success_policy;                // "" (the operator's default) | AllWorkers
};

// One replica type from its flags; FLAG is its prefix (ps, worker, chief, evaluator).
TFReplicaType tf_replica(const Plan& p, const std::string& type, const std::string& flag, int replicas,
                         const TFReplicaOptions& r) {
  if (r.port < 0 || r.port > 65535) throw UsageError("--" + flag + "-port must be between 1 and 65535");
  check_quantity("--" + flag + "-cpu", r.cpu);
  check_quantity("--" + flag + "-memory", r.memory);
  TFReplicaType t;
  t.type = type;
  t.replicas = replicas;
  t.port = r.port > 0 ? r.port : kTFDefaultPort;
  t.cpu = r.cpu.empty() ? p.cpu : r.cpu;
  t.memory = r.memory.empty() ? p.memory : r.memory;
  t.gpus = p.gpus;
  t.image = p.worker_image;
  t.selectors =
      r.selectors.empty() ? p.selectors : key_values("--" + flag + "-selector", r.selectors, true, true);
  t.restart_policy = "Never";
  return t;
}

// A type's own flags are refused when the job has no such replica (Arena ignores them).
void refuse_unused(const std::string& flag, const std::string& needs, const TFReplicaOptions& r) {
  if (r.port != 0 || !r.cpu.empty() || !r.memory.empty() || !r.selectors.empty())
    throw UsageError("--" + flag + "-port, --" + flag + "-cpu, --" + flag + "-memory and --" + flag +
                     "-selector need " + needs);
}

// One TFJob replica type's own flags (--ps-port, --ps-cpu...); TYPE names it in the help.
void add_tf_replica_flags(FlagSet& f, const std::string& prefix, const std::string& type,
                          TFReplicaOptions& r) {
  f.option("--" + prefix + "-port", r.port,
           "Port tfjob-port of the " + type +
               ", on the container tensorflow that the training-operator configures (default: the "
               "operator's 2222; Arena picks a free port)");
  f.option("--" + prefix + "-cpu", r.cpu, "CPU request and limit of the " + type + " (default: --cpu)");
  f.option("--" + prefix + "-memory", r.memory,
           "Memory request and limit of the " + type + " (default: --memory)");
  f.repeatable("--" + prefix + "-selector", r.selectors,
               "Node selector KEY=VALUE of the " + type + ", instead of --selector (repeatable)");
}

class TFJobKind final : public SubmitKind {
 public:
  TFJobKind()
      : SubmitKind(
            jobs::kind_named("tfjob"),
            {.command = "tf",
             .alias = "tfjob",
             .help = "Submit a TFJob (kubeflow.org/v1)",
             .examples = "  trainctl submit tf --name=tf-dist --ps=1 --workers=2 --chief --gpus=1 "
                         "--image=IMAGE \"python "
                         "train.py\"\n"
                         "  trainctl submit tf --name=estimator --ps=2 --ps-cpu=4 --ps-memory=8Gi "
                         "--workers=4 --gpus=1 "
                         "--chief --evaluator --image=IMAGE \"python train.py\"\n"
                         "  trainctl submit tf --name=mnist --workers=2 --worker-selector=accelerator=v100 "
                         "--success-policy=AllWorkers --image=IMAGE \"python mnist.py\"\n",
             .template_dir = "tf",
             .not_installed_hint = "install the training-operator",
             .worker_image = WorkerImage::Workers,
             // kueue pkg/controller/jobs/kubeflow/jobs/tfjob.
             .kueue = {.framework = "kubeflow.org/tfjob",
                       .suspend_field = "spec.runPolicy.suspend",
                       .off_by_default_from = "v0.19.0",
                       .instead = "submit it as an MPIJob (trainctl submit mpi) or as a "
                                  "TrainJob"},
             .crd_fields = {
                 {kScheduleTimeoutField, &ServerFacts::schedule_timeout_field, "training-operator v1.6"}}}) {}

  void plan_gang(const SubmitOptions& o, Plan& p) const override {
    const TFOptions& tf = kind_part<TFOptions>(o);
    TFPlan& plan = set_kind_part<TFPlan>(p);
    if (tf.ps < 0) throw UsageError("--ps must not be negative");
    if (tf.ps_gpus < 0) throw UsageError("--ps-gpus must not be negative");
    if (tf.ps == 0 && (!tf.ps_image.empty() || tf.ps_gpus > 0))
      throw UsageError("--ps-image and --ps-gpus need --ps");
    if (tf.ps == 0) refuse_unused("ps", "--ps", tf.ps_replica);
    if (!tf.chief) refuse_unused("chief", "--chief", tf.chief_replica);
    if (!tf.evaluator) refuse_unused("evaluator", "--evaluator", tf.evaluator_replica);
    // Arena's ChiefWorker is the operator's default, "" (SuccessPolicyDefault).
    if (tf.success_policy == "AllWorkers")
      plan.success_policy = "AllWorkers";
    else if (!tf.success_policy.empty() && tf.success_policy != "ChiefWorker")
      throw UsageError("invalid --success-policy " + dq(tf.success_policy) +
                       ": use ChiefWorker or AllWorkers");

    plan.replica_types.clear();
    if (tf.ps > 0) {
      TFReplicaType ps = tf_replica(p, "PS", "ps", tf.ps, tf.ps_replica);
      ps.image = tf.ps_image;
      ps.gpus = tf.ps_gpus;
      plan.replica_types.push_back(std::move(ps));
    }
    TFReplicaType worker = tf_replica(p, "Worker", "worker", o.workers, tf.worker);
    // Arena's chart: with a chief, the workers restart on failure; the chief decides the end.
    if (tf.chief) worker.restart_policy = "OnFailure";
    plan.replica_types.push_back(std::move(worker));
    if (tf.chief) plan.replica_types.push_back(tf_replica(p, "Chief", "chief", 1, tf.chief_replica));
    if (tf.evaluator)
      plan.replica_types.push_back(tf_replica(p, "Evaluator", "evaluator", 1, tf.evaluator_replica));

    plan_worker_gang(o, p);
  }

  int expected_pods(const SubmitOptions&, const Plan& p) const override {
    int pods = 0;
    for (const auto& t : kind_part<TFPlan>(p).replica_types) pods += t.replicas;
    return pods;
  }

  // Arena's addRequestGPUsToAnnotation counts the workers, the chief and the evaluator; the
  // parameter servers' --ps-gpus are requested too, so they count.
  long long requested_gpus(const Plan& p) const override {
    long long gpus = 0;
    for (const auto& t : kind_part<TFPlan>(p).replica_types)
      gpus += static_cast<long long>(t.replicas) * t.gpus;
    return gpus;
  }

  std::vector<std::string> derived_names(const Plan& p) const override {
    std::vector<std::string> names;
    for (const auto& t : kind_part<TFPlan>(p).replica_types)
      names.push_back(p.name + "-" + ascii_lower(t.type) + "-" + std::to_string(t.replicas - 1));
    return names;
  }

  std::vector<json> build(const Plan& p, const render::TemplateSet& t) const override {
    const JobTemplate job_yaml(t, p.template_kind);
    json v = job_values(p);
    const TFPlan& plan = kind_part<TFPlan>(p);
    v["success_policy"] = or_null(plan.success_policy);
    json types = json::array();
    std::vector<json> pods;
    for (const auto& rt : plan.replica_types) {
      types.push_back({{"type", rt.type}, {"replicas", rt.replicas}, {"restart_policy", rt.restart_policy}});
      // The replica's restartPolicy is the operator's; the pod template sets none.
      Plan replica = p;
      replica.cpu = rt.cpu;
      replica.memory = rt.memory;
      replica.selectors = rt.selectors;
      PodRole role{kTFContainer, ""};
      role.image = rt.image;
      role.gpus = rt.gpus;
      role.ports = json::array({{{"name", kTFPortName}, {"port", rt.port}}});  // the operator's tfjob-port
      json pod = pod_template(replica, t, role);
      job_yaml.offer(ascii_lower(rt.type) + "_template_json", pod, v);
      pods.push_back(std::move(pod));
    }
    v["replica_types"] = types;
    json job = job_yaml.render(v);
    for (size_t i = 0; i < pods.size(); ++i) {
      const std::string& type = plan.replica_types[i].type;
      job_yaml.put_pod_template(job, "/spec/tfReplicaSpecs/" + type, ascii_lower(type) + "_template_json",
                                std::move(pods[i]));
    }
    return {std::move(job)};
  }

  // The operator's chief (jobs/kinds/tfjob.cpp): the Chief replica, else worker 0.
  std::vector<KeyValue> chief_pod_labels(const Plan& p) const override {
    const auto& types = kind_part<TFPlan>(p).replica_types;
    const bool chief =
        std::any_of(types.begin(), types.end(), [](const TFReplicaType& t) { return t.type == "Chief"; });
    if (chief)
      return {{"training.kubeflow.org/job-name", p.name}, {"training.kubeflow.org/replica-type", "chief"}};
    return {{"training.kubeflow.org/job-name", p.name},
            {"training.kubeflow.org/replica-type", "worker"},
            {"training.kubeflow.org/replica-index", "0"}};
  }

  bool reads_crd(const Plan& p) const override { return p.schedule_timeout_seconds.has_value(); }

 protected:
  // The training flags, then Arena's tfjob flags: --ps, --chief, --evaluator and each replica
  // type's image, port, resources and node selector.
  void add_flags(FlagSet& f, SubmitOptions& o) const override {
    add_training_flags(f, o, rules);
    TFOptions& tf = set_kind_part<TFOptions>(o);
    f.find("--worker-image").help =
        ("Image of the workers, the chief and the evaluator, instead of --image (which the "
         "parameter servers keep unless --ps-image); alone, the image of every pod");
    f.alias("--workerImage", o.worker_image);
    f.find("--workers").help = ("Number of Worker replicas (the PS, chief and evaluator are extra)");
    f.find("--gpus").help =
        ("GPUs per worker, chief and evaluator (nvidia.com/gpu; the parameter servers take --ps-gpus)");
    f.option("--ps", tf.ps, "Number of parameter servers (PS replicas)").with_default();
    f.option("--ps-image", tf.ps_image, "Image of the parameter servers (default: --image)");
    f.alias("--psImage", tf.ps_image);
    f.option("--ps-gpus", tf.ps_gpus, "GPUs per parameter server (--gpus is not theirs)").with_default();
    add_tf_replica_flags(f, "ps", "parameter servers", tf.ps_replica);
    f.alias("--psPort", tf.ps_replica.port);
    f.alias("--psCpu", tf.ps_replica.cpu);
    f.alias("--psMemory", tf.ps_replica.memory);
    add_tf_replica_flags(f, "worker", "workers", tf.worker);
    f.alias("--workerPort", tf.worker.port);
    f.alias("--workerCpu", tf.worker.cpu);
    f.alias("--workerMemory", tf.worker.memory);
    f.flag("--chief", tf.chief,
           "Add a Chief replica (TensorFlow Estimator's chief; it decides when the job succeeded)");
    add_tf_replica_flags(f, "chief", "chief", tf.chief_replica);
    f.alias("--chiefPort", tf.chief_replica.port);
    f.alias("--ChiefCpu", tf.chief_replica.cpu);
    f.alias("--ChiefMemory", tf.chief_replica.memory);
    f.flag("--evaluator", tf.evaluator, "Add an Evaluator replica (TensorFlow Estimator's evaluator)");
    add_tf_replica_flags(f, "evaluator", "evaluator", tf.evaluator_replica);
    f.alias("--evaluatorCpu", tf.evaluator_replica.cpu);
    f.alias("--evaluatorMemory", tf.evaluator_replica.memory);
    f.option("--success-policy", tf.success_policy,
             "When the job succeeded: ChiefWorker (the chief, else worker 0, succeeded; the operator's "
             "default) or AllWorkers")
        .with_default();
  }
};

}  // namespace

const SubmitKind& tfjob() {
  static const TFJobKind kind;
  return kind;
}

}  // namespace trainctl::submit::kinds
