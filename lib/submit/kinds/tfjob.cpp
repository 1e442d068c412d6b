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
#include <algorithm>

#include "core/errors.h"
#include "core/text.h"
#include "submit/job_template.h"
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

// One replica type from its flags; FLAG is its prefix (ps, worker, chief, evaluator).
ReplicaType tf_replica(const Plan& p, const std::string& type, const std::string& flag, int replicas,
                       const TFReplicaOptions& r) {
  if (r.port < 0 || r.port > 65535) throw UsageError("--" + flag + "-port must be between 1 and 65535");
  check_quantity("--" + flag + "-cpu", r.cpu);
  check_quantity("--" + flag + "-memory", r.memory);
  ReplicaType t;
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

class TFJobKind final : public SubmitKind {
 public:
  TFJobKind()
      : SubmitKind(jobs::Trainer::TF, {.command = "tf",
                                       .template_dir = "tf",
                                       .not_installed_hint = "install the training-operator",
                                       .worker_image = WorkerImage::Workers,
                                       // kueue pkg/controller/jobs/kubeflow/jobs/tfjob.
                                       .kueue = {.framework = "kubeflow.org/tfjob",
                                                 .suspend_field = "spec.runPolicy.suspend",
                                                 .off_by_default_from = "v0.19.0",
                                                 .instead = "submit it as an MPIJob (trainctl submit mpi) or as a "
                                                            "TrainJob"}}) {}

  void plan_gang(const SubmitOptions& o, Plan& p) const override {
    const TFOptions& tf = o.tf;
    if (tf.ps < 0) throw UsageError("--ps must not be negative");
    if (tf.ps_gpus < 0) throw UsageError("--ps-gpus must not be negative");
    if (tf.ps == 0 && (!tf.ps_image.empty() || tf.ps_gpus > 0))
      throw UsageError("--ps-image and --ps-gpus need --ps");
    if (tf.ps == 0) refuse_unused("ps", "--ps", tf.ps_replica);
    if (!tf.chief) refuse_unused("chief", "--chief", tf.chief_replica);
    if (!tf.evaluator) refuse_unused("evaluator", "--evaluator", tf.evaluator_replica);
    // Arena's ChiefWorker is the operator's default, "" (SuccessPolicyDefault).
    if (tf.success_policy == "AllWorkers")
      p.success_policy = "AllWorkers";
    else if (!tf.success_policy.empty() && tf.success_policy != "ChiefWorker")
      throw UsageError("invalid --success-policy " + dq(tf.success_policy) +
                       ": use ChiefWorker or AllWorkers");

    p.replica_types.clear();
    if (tf.ps > 0) {
      ReplicaType ps = tf_replica(p, "PS", "ps", tf.ps, tf.ps_replica);
      ps.image = tf.ps_image;
      ps.gpus = tf.ps_gpus;
      p.replica_types.push_back(std::move(ps));
    }
    ReplicaType worker = tf_replica(p, "Worker", "worker", o.workers, tf.worker);
    // Arena's chart: with a chief, the workers restart on failure; the chief decides the end.
    if (tf.chief) worker.restart_policy = "OnFailure";
    p.replica_types.push_back(std::move(worker));
    if (tf.chief) p.replica_types.push_back(tf_replica(p, "Chief", "chief", 1, tf.chief_replica));
    if (tf.evaluator)
      p.replica_types.push_back(tf_replica(p, "Evaluator", "evaluator", 1, tf.evaluator_replica));

    plan_worker_gang(o, p);
  }

  int expected_pods(const SubmitOptions&, const Plan& p) const override {
    int pods = 0;
    for (const auto& t : p.replica_types) pods += t.replicas;
    return pods;
  }

  // Arena's addRequestGPUsToAnnotation counts the workers, the chief and the evaluator; the
  // parameter servers' --ps-gpus are requested too, so they count.
  long long requested_gpus(const Plan& p) const override {
    long long gpus = 0;
    for (const auto& t : p.replica_types) gpus += static_cast<long long>(t.replicas) * t.gpus;
    return gpus;
  }

  std::vector<std::string> derived_names(const Plan& p) const override {
    std::vector<std::string> names;
    for (const auto& t : p.replica_types)
      names.push_back(p.name + "-" + ascii_lower(t.type) + "-" + std::to_string(t.replicas - 1));
    return names;
  }

  std::vector<json> build(const Plan& p, const render::TemplateSet& t) const override {
    const JobTemplate job_yaml(t, p.template_kind);
    json v = job_values(p);
    v["success_policy"] = or_null(p.success_policy);
    json types = json::array();
    std::vector<json> pods;
    for (const auto& rt : p.replica_types) {
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
      const std::string& type = p.replica_types[i].type;
      job_yaml.put_pod_template(job, "/spec/tfReplicaSpecs/" + type, ascii_lower(type) + "_template_json",
                                std::move(pods[i]));
    }
    return {std::move(job)};
  }

  // The operator's chief (jobs/kinds/tfjob.cpp): the Chief replica, else worker 0.
  std::vector<KeyValue> chief_pod_labels(const Plan& p) const override {
    const bool chief = std::any_of(p.replica_types.begin(), p.replica_types.end(),
                                   [](const ReplicaType& t) { return t.type == "Chief"; });
    if (chief)
      return {{"training.kubeflow.org/job-name", p.name}, {"training.kubeflow.org/replica-type", "chief"}};
    return {{"training.kubeflow.org/job-name", p.name},
            {"training.kubeflow.org/replica-type", "worker"},
            {"training.kubeflow.org/replica-index", "0"}};
  }

  bool reads_crd(const Plan& p) const override { return p.schedule_timeout_seconds.has_value(); }

  void read_crd(const json& crd, ServerFacts& facts) const override {
    facts.schedule_timeout_field = crd_has_field(crd, job.resource.version, kScheduleTimeoutField);
  }
};

}  // namespace

const SubmitKind& tfjob() {
  static const TFJobKind kind;
  return kind;
}

}  // namespace trainctl::submit::kinds
