// TrainJob (trainer.kubeflow.org/v1alpha1, Kubeflow Trainer v2): one object naming a
// TrainingRuntime or ClusterTrainingRuntime; the Trainer controller builds the JobSet from it.
// What trainctl renders, upstream kubeflow/trainer@v2.3.0 pkg/apis/trainer/v1alpha1/trainjob_types.go:
// - runtimeRef {name, kind} (apiGroup is the CRD's default); trainer {image, command, args, env,
//   numNodes, resourcesPerNode, numProcPerNode}; initializer {dataset, model}.storageUri;
//   activeDeadlineSeconds (--running-timeout); metadata labels (kueue.x-k8s.io/queue-name).
// - Pod-level settings (pod labels and annotations, nodeSelector, tolerations, volumes,
//   imagePullSecrets, serviceAccountName; volumeMounts of container "node") go in one
//   runtimePatches entry (RuntimePatch, v2.2.0 on; v2.0 had podSpecOverrides, v2.1
//   podTemplateOverrides). Only what the user asked for is rendered: the runtime says the rest.
// - --sync-mode: a runtimePatches ContainerPatch is {name, env, volumeMounts, securityContext},
//   without image or command, so it cannot add the code-sync init container: the job gets a
//   TrainingRuntime of its own that has it (trainjob_code_sync.cpp), created before it.
// What a TrainJob cannot carry is refused (unsupported_flag below): env on container "node" is
// forbidden (jobset.go Validate L172-209), so the environment goes in trainer.env; PodSpecPatch
// has no priorityClassName, schedulerName, hostNetwork/IPC/PID.
#include "submit/kinds/trainjob.h"

#include <algorithm>
#include <regex>
#include <tuple>

#include "core/errors.h"
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

// Flags of the shared submit pipeline a TrainJob has no field for; "" = none given.
std::string unsupported_flag(const SubmitOptions& o) {
  if (!o.sync_mode.empty() && o.dry_run)
    return "--dry-run with --sync-mode: the TrainJob's own TrainingRuntime copies the cluster's runtime, which "
           "--dry-run does not read; submit without --dry-run and read it with kubectl get trainingruntime "
           "NAME-code-sync -o yaml";
  if (!o.priority.empty()) return "--priority: a TrainJob's runtimePatches have no priorityClassName";
  if (!o.scheduler.empty()) return "--scheduler: a TrainJob's runtimePatches have no schedulerName";
  if (o.host_network || o.host_ipc || o.host_pid)
    return "--host-network, --host-ipc and --host-pid: a TrainJob's runtimePatches have no host namespaces";
  if (o.rdma) return "--rdma: a TrainJob's runtimePatches have no capabilities for container node";
  if (!o.worker_image.empty()) return "--worker-image: every node of a TrainJob runs trainer.image (--image)";
  if (o.retry) return "--retry: a TrainJob has no backoffLimit (the runtime's JobSet failurePolicy decides)";
  if (!o.ttl_after_finished.empty()) return "--ttl-after-finished: a TrainJob has no ttlSecondsAfterFinished";
  if (!o.clean_task_policy.empty()) return "--clean-task-policy: a TrainJob has no cleanPodPolicy";
  if (!o.shm_size.empty())
    return "--share-memory: a TrainJob's runtime decides /dev/shm; give it a memory emptyDir in the runtime";
  if (!o.config_files.empty()) return "--config-file: not yet available for a TrainJob";
  if (!o.image_pull_policy.empty()) return "--image-pull-policy: a TrainJob's runtimePatches have no imagePullPolicy";
  if (kind_part<TorchrunOptions>(o).master_port != 23456)
    return "--master-port: the torch plugin sets PET_MASTER_PORT of a TrainJob";
  return "";
}

// Env names a runtime's plugin refuses in trainer.env (kubeflow/trainer@v2.3.0
// pkg/runtime/framework/plugins/torch/torch.go Validate, pkg/constants/constants.go L300).
void check_env(const Plan& p) {
  static const char* reserved[] = {"PET_NNODES", "PET_NPROC_PER_NODE", "PET_NODE_RANK", "PET_MASTER_ADDR",
                                   "PET_MASTER_PORT"};
  for (const auto& e : p.envs)
    for (const char* r : reserved)
      if (e.key == r)
        throw UsageError("invalid --env " + e.key + ": the Trainer's torch plugin sets " + e.key +
                         " itself (use --workers and --nproc-per-node)");
}

void check_uri(const std::string& flag, const std::string& uri) {
  // trainjob_types.go DatasetInitializer/ModelInitializer storageUri CEL (v2.3.0).
  static const std::regex re("^[A-Za-z][A-Za-z0-9+.-]*://.+$");
  if (!uri.empty() && (!std::regex_match(uri, re) || uri.size() > 2048))
    throw UsageError("invalid " + flag + " " + dq(uri) + ": use a URI such as hf://org/name or s3://bucket/path");
}

class TrainJobKind final : public SubmitKind {
 public:
  TrainJobKind()
      : SubmitKind(
            jobs::kind_named("trainjob"),
            {.command = "trainjob",
             .alias = "tj",
             .help = "Submit a TrainJob (trainer.kubeflow.org/v1alpha1) on a training runtime",
             .examples =
                 "  # Two nodes with one GPU each on the torch-distributed ClusterTrainingRuntime\n"
                 "  trainctl submit trainjob --name=mnist --runtime=torch-distributed --workers=2 --gpus=1 "
                 "\\\n"
                 "    --data=training-data:/data \"torchrun /data/train.py\"\n"
                 "  # Queued in Kueue's LocalQueue team-a (Kueue suspends it until admitted)\n"
                 "  trainctl submit trainjob --name=mnist --runtime=torch-distributed --kueue-queue=team-a "
                 "\"torchrun train.py\"\n"
                 "  # Fine-tune with the runtime's own command and initializers\n"
                 "  trainctl submit trainjob --name=tune --runtime=torchtune-llama3.2-1b "
                 "--dataset-uri=hf://tatsu-lab/alpaca\n"
                 "  # The code fetched with git-sync into WORKING_DIR/code/ before the nodes start\n"
                 "  trainctl submit trainjob --name=mnist --runtime=torch-distributed --working-dir=/root \\\n"
                 "    --sync-mode=git --sync-source=https://code.aliyun.com/370272561/mnist-pytorch.git \\\n"
                 "    \"python /root/code/mnist-pytorch/mnist.py\"\n"
                 "  # See what would be sent\n"
                 "  trainctl submit trainjob --name=mnist --runtime=torch-distributed --dry-run \"torchrun "
                 "train.py\"\n",
             .template_dir = "trainjob",
             .not_installed_hint = "install Kubeflow Trainer v2, or submit pytorch --api none",
             .image_required = false,  // the runtime's image
             .command_required = false,
             .shm = false,
             .kube_queue = false,
             .no_gang_reason = "--gang, --queue, --min-available and --schedule-timeout are not TrainJob "
                               "fields: the runtime's podGroupPolicy decides gang scheduling",
             // kueue@v0.19.2 pkg/controller/jobs/trainjob (on by default: trainer-v2.md §7).
             .kueue = {.framework = "trainer.kubeflow.org/trainjob", .suspend_field = "spec.suspend"},
             .runs_on_runtime = true,
             .minimal_flags = {{"--runtime", kTorchDistributed}}}) {}

  std::vector<std::string> derived_names(const Plan& p) const override {
    // jobset@v0.12.0 jobset_webhook.go: <jobset>-<rjob>-<job>-<pod>-<5 chars> at most 63.
    std::vector<std::string> names = {p.name + "-node-0-" + std::to_string(p.workers - 1) + "-xxxxx"};
    const TrainJobPlan& tj = kind_part<TrainJobPlan>(p);
    if (!tj.dataset_uri.empty()) names.push_back(p.name + "-dataset-initializer-0-0-xxxxx");
    if (!tj.model_uri.empty()) names.push_back(p.name + "-model-initializer-0-0-xxxxx");
    return names;
  }

  int expected_pods(const SubmitOptions& o, const Plan&) const override { return o.workers; }

  // submit pytorch --api trainer: its torchrun flags; a TrainJob is not elastic.
  void plan_replicas(const SubmitOptions& o, Plan& p) const override {
    refuse_elastic(o, "a TrainJob runs trainer.numNodes nodes");
    plan_torchrun(o, p);
  }

  void plan_kind(const SubmitOptions& options, Plan& p) const override {
    if (const std::string flag = unsupported_flag(options); !flag.empty()) throw UsageError(flag);
    const TrainJobOptions& o = kind_part<TrainJobOptions>(options);
    TrainJobPlan& tj = set_kind_part<TrainJobPlan>(p);
    if (o.runtime.empty() && options.kind == this)
      throw UsageError("--runtime is required: name a ClusterTrainingRuntime (trainctl runtime list)");
    tj.runtime_name = o.runtime.empty() ? std::string(kTorchDistributed) : o.runtime;
    if (!is_dns1123_subdomain(tj.runtime_name)) throw UsageError("invalid --runtime " + dq(tj.runtime_name));
    if (o.runtime_kind != "ClusterTrainingRuntime" && o.runtime_kind != "TrainingRuntime")
      throw UsageError("invalid --runtime-kind " + dq(o.runtime_kind) +
                       ": use ClusterTrainingRuntime or TrainingRuntime");
    tj.runtime_kind = o.runtime_kind;
    // v2.2.0 on, numProcPerNode is an integer (auto is the torch default when unset).
    std::string& nproc = set_kind_part<TorchrunPlan>(p).nproc_per_node;
    if (nproc == "auto") nproc.clear();
    if (nproc == "cpu" || nproc == "gpu")
      throw UsageError("invalid --nproc-per-node " + nproc +
                       ": a TrainJob takes a number (trainer.numProcPerNode), or none for auto");
    check_uri("--dataset-uri", o.dataset_uri);
    check_uri("--model-uri", o.model_uri);
    tj.dataset_uri = o.dataset_uri;
    tj.model_uri = o.model_uri;
    tj.trainer_args = o.trainer_args;
    check_env(p);
    tj.pod_annotations = p.annotations;  // the user's: Arena's implicit ones stay on the TrainJob
  }

  void check_cluster(kube::Client& client, Plan& p) const override {
    const TrainingRuntime runtime = find_runtime(client, p);
    TrainJobPlan& tj = set_kind_part<TrainJobPlan>(p);
    if (!runtime.node_jobs.empty()) tj.runtime_node_jobs = runtime.node_jobs;
    if (uses_code_sync_runtime(p)) {
      if (runtime.node_jobs.empty())
        throw UsageError("--sync-mode: the runtime " + tj.runtime_name +
                         " has no container node to put the code in; use another runtime");
      tj.sync_runtime_source = runtime.object;
    }
    // The Trainer's webhook refuses an initializer the runtime has no job for (jobset.go
    // Validate L112-170); said here, before TensorBoard's objects are created.
    auto has = [&](const std::string& j) {
      return std::find(runtime.jobs.begin(), runtime.jobs.end(), j) != runtime.jobs.end();
    };
    for (const auto& [uri, step, flag] : {std::tuple{tj.dataset_uri, "dataset-initializer", "--dataset-uri"},
                                          std::tuple{tj.model_uri, "model-initializer", "--model-uri"}})
      if (!uri.empty() && !has(step))
        throw UsageError(std::string(flag) + ": the runtime " + tj.runtime_name + " has no " + step +
                         " job; use a runtime that has one (trainctl runtime list -o wide)");
  }

  std::vector<json> build(const Plan& p, const render::TemplateSet& t) const override {
    std::vector<json> out = {render_trainjob(p, t)};
    if (uses_code_sync_runtime(p)) out.push_back(render_code_sync_runtime(p, t));
    return out;
  }

  // The TrainJob's own TrainingRuntime: the Trainer's webhook refuses a TrainJob whose runtime
  // does not exist yet (trainingruntime.go L304-314).
  bool created_before_job(const json& object) const override {
    return object.value("kind", "") == "TrainingRuntime";
  }

  std::vector<KeyValue> chief_pod_labels(const Plan& p) const override {
    // jobset@v0.12.0 pkg/controllers/jobset_controller.go labelAndAnnotateObject: every pod
    // carries its JobSet, rJob and Job index; the Job's completion index 0 is the first node.
    return {{"jobset.sigs.k8s.io/jobset-name", p.name},
            {"jobset.sigs.k8s.io/replicatedjob-name", "node"},
            {"jobset.sigs.k8s.io/job-index", "0"},
            {"batch.kubernetes.io/job-completion-index", "0"}};
  }

  bool reads_crd(const Plan&) const override { return true; }

  void read_crd(const json& crd, ServerFacts& facts) const override {
    facts.runtime_patches_field = crd_declares_field(crd, job.resource.version, "spec.runtimePatches");
    facts.active_deadline_field = crd_declares_field(crd, job.resource.version, "spec.activeDeadlineSeconds");
  }

  void apply_facts(const ServerFacts& facts, Plan& p, std::vector<std::string>&) const override {
    // runtimePatches came with v2.2.0 (v2.0 podSpecOverrides, v2.1 podTemplateOverrides).
    if (!facts.runtime_patches_field && needs_runtime_patch(p))
      throw UsageError(
          "this cluster's TrainJob CRD has no spec.runtimePatches: --label, --annotation, --selector, "
          "--toleration, --data, --data-dir, --image-pull-secret, --service-account and --tensorboard on a "
          "TrainJob need Kubeflow Trainer v2.2.0 or later");
    // activeDeadlineSeconds came with v2.2.0 too (trainjob_types.go at v2.1.0 has none).
    if (!facts.active_deadline_field && p.active_deadline_seconds)
      throw UsageError("this cluster's TrainJob CRD has no spec.activeDeadlineSeconds: --running-timeout needs "
                       "Kubeflow Trainer v2.2.0 or later");
  }

 protected:
  // The flags a TrainJob has a field for (runtime, trainer, initializers, pod patches), no others.
  void add_flags(FlagSet& f, SubmitOptions& o) const override {
    TrainJobOptions& tj = set_kind_part<TrainJobOptions>(o);
    f.option("--name", o.name, "TrainJob name (required; lower-case letters, digits, '-')").require();
    f.option("--runtime", tj.runtime,
             "The runtime the job runs on (spec.runtimeRef.name; required; see trainctl runtime list)");
    f.option("--runtime-kind", tj.runtime_kind,
             "Kind of the runtime, a TrainingRuntime being the namespace's: ClusterTrainingRuntime or "
             "TrainingRuntime")
        .with_default();
    f.option("--image", o.image, "Image of the training nodes (trainer.image; default: the runtime's)");
    f.option("--workers", o.workers, "Number of training nodes (trainer.numNodes)").with_default();
    f.option("--gpus", o.gpus, "GPUs per node (trainer.resourcesPerNode, nvidia.com/gpu)");
    f.option("--cpu", o.cpu, "CPU request and limit per node, e.g. 4 or 500m");
    f.option("--memory", o.memory, "Memory request and limit per node, e.g. 8Gi");
    f.repeatable("--device", o.devices,
                 "Another device resource per node VENDOR/RESOURCE=COUNT (repeatable)");
    f.option("--nproc-per-node", set_kind_part<TorchrunOptions>(o).nproc_per_node,
             "Processes per node (trainer.numProcPerNode): N, or auto");
    f.repeatable("-e,--env", o.envs,
                 "Environment variable KEY=VALUE of the trainer (trainer.env; repeatable)");
    f.option("--working-dir", o.working_dir, "Directory the command runs in").with_default();
    f.option("--shell", o.shell, "Shell that runs the command: sh or bash").with_default();
    add_code_sync_flags(f, o);
    f.find("--sync-mode").help =
        "Fetch code before start: git or rsync (the job then runs on a TrainingRuntime NAME-code-sync of its "
        "own, a copy of --runtime with the code-sync init container, deleted with the job)";
    f.repeatable("--arg", tj.trainer_args, "An argument of the runtime's command (trainer.args; repeatable)");
    f.repeatable("-d,--data", o.data, "Mount a PVC on the nodes: PVC_NAME:/mount/path (repeatable)");
    f.repeatable("--data-dir", o.data_dirs, "Mount a host directory: /host/path[:/mount/path] (repeatable)");
    f.repeatable("--selector", o.selectors, "Node selector KEY=VALUE of the pods (repeatable)");
    f.repeatable("--toleration", o.tolerations, "Toleration KEY[=VALUE][:EFFECT], or all (repeatable)");
    f.repeatable("-a,--annotation", o.annotations,
                 "Annotation KEY=VALUE on the TrainJob and its pods (repeatable)");
    f.repeatable("-l,--label", o.labels, "Label KEY=VALUE on the TrainJob and its pods (repeatable)");
    f.repeatable("--image-pull-secret", o.image_pull_secrets, "Image pull secret name (repeatable)");
    f.option("--service-account", o.service_account, "ServiceAccount of the pods (serviceAccountName)");
    f.option("--dataset-uri", tj.dataset_uri,
             "Dataset the runtime's dataset initializer fetches, e.g. hf://tatsu-lab/alpaca");
    f.option("--model-uri", tj.model_uri,
             "Model the runtime's model initializer fetches, e.g. hf://meta-llama/Llama-3.2-1B-Instruct");
    f.flag("--tensorboard", o.tensorboard,
           "Run TensorBoard (Deployment + NodePort Service NAME-tensorboard)");
    f.option("--logdir", o.logdir, "Event directory TensorBoard reads").with_default();
    f.option("--tensorboard-image", o.tensorboard_image, "TensorBoard image");
    f.option("--running-timeout", o.running_timeout,
             "Stop the job after it ran this long (activeDeadlineSeconds)");
    f.option("--kueue-queue", o.kueue_queue,
             "Kueue LocalQueue of the TrainJob (label kueue.x-k8s.io/queue-name): it waits there for quota");
    add_output_flags(f, o);
  }
};

}  // namespace

const SubmitKind& trainjob() {
  static const TrainJobKind kind;
  return kind;
}

}  // namespace trainctl::submit::kinds
