#include "submit/flags.h"

#include <CLI/CLI.hpp>

#include "submit/submit_kind.h"

namespace trainctl::submit {

namespace {

// Repeatable flag taking exactly one value each time, so that a following positional
// command is never swallowed.
template <typename T>
CLI::Option* repeatable(CLI::App& cmd, const std::string& names, std::vector<T>& into,
                        const std::string& help) {
  return cmd.add_option(names, into, help)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

// A hidden alias writing into the same variable (Arena's deprecated camelCase spellings).
template <typename T>
void alias(CLI::App& cmd, const std::string& name, T& into) {
  cmd.add_option(name, into)->group("");
}
template <typename T>
void alias(CLI::App& cmd, const std::string& name, std::vector<T>& into) {
  repeatable(cmd, name, into, "")->group("");
}

void add_pod_flags(CLI::App& cmd, SubmitOptions& o) {
  cmd.add_option("--name", o.name, "Job name (required; lower-case letters, digits, '-')")->required();
  cmd.add_option("--image", o.image, "Container image of the job");
  cmd.add_option("--gpus", o.gpus, "GPUs per pod (nvidia.com/gpu)");
  cmd.add_option("--cpu", o.cpu, "CPU request and limit per pod, e.g. 4 or 500m");
  cmd.add_option("--memory", o.memory, "Memory request and limit per pod, e.g. 8Gi");
  cmd.add_option("--working-dir", o.working_dir, "Working directory of the command")->capture_default_str();
  alias(cmd, "--workingDir", o.working_dir);
  repeatable(cmd, "-e,--env", o.envs, "Environment variable KEY=VALUE (repeatable)");
  repeatable(cmd, "-d,--data", o.data, "Mount a PVC: PVC_NAME:/mount/path (repeatable)");
  repeatable(cmd, "--data-dir", o.data_dirs, "Mount a host directory: /host/path[:/mount/path] (repeatable)");
  alias(cmd, "--dataDir", o.data_dirs);
  repeatable(cmd, "--selector", o.selectors, "Node selector KEY=VALUE (repeatable)");
  repeatable(cmd, "--toleration", o.tolerations, "Toleration KEY[=VALUE][:EFFECT], or all (repeatable)");
  repeatable(cmd, "-a,--annotation", o.annotations,
             "Annotation KEY=VALUE on the job and its pods (repeatable)");
  repeatable(cmd, "-l,--label", o.labels, "Label KEY=VALUE on the job and its pods (repeatable)");
  repeatable(cmd, "--image-pull-secret", o.image_pull_secrets, "Image pull secret name (repeatable)");
  alias(cmd, "--imagePullSecret", o.image_pull_secrets);
  cmd.add_option("--image-pull-policy", o.image_pull_policy,
                 "When to pull the images: Always (default, as Arena), IfNotPresent or Never");
  alias(cmd, "--imagePullPolicy", o.image_pull_policy);
  repeatable(cmd, "--device", o.devices,
             "Another device resource per pod VENDOR/RESOURCE=COUNT, e.g. amd.com/gpu=1 (repeatable)");
  repeatable(cmd, "--config-file", o.config_files,
             "Ship a host file to the pods: HOST_FILE[:/container/path] (repeatable; a ConfigMap per directory)");
  alias(cmd, "--configFile", o.config_files);
  cmd.add_flag("--rdma", o.rdma, "Request an RDMA device (rdma/hca: 1) and the IPC_LOCK capability");
  cmd.add_option("--service-account", o.service_account,
                 "ServiceAccount every pod of the job runs as (serviceAccountName), e.g. one allowed to list "
                 "pods; default: the namespace's default");
  cmd.add_flag("--hostNetwork,--host-network", o.host_network,
               "Pods use the node's network (dnsPolicy ClusterFirstWithHostNet)");
  cmd.add_flag("--hostIPC,--host-ipc", o.host_ipc, "Pods use the node's IPC namespace");
  cmd.add_flag("--hostPID,--host-pid", o.host_pid, "Pods use the node's process namespace");
  cmd.add_option("-p,--priority", o.priority, "PriorityClass of the pods");
  cmd.add_option("--shell", o.shell, "Shell that runs the command: sh or bash")->capture_default_str();
  cmd.add_option("--retry", o.retry,
                 "Retries before the job is marked failed (backoffLimit; default: the operator's own)");
  cmd.add_option("--ttl-after-finished", o.ttl_after_finished,
                 "Delete the job this long after it ends, e.g. 1h");
}

void add_output_flags(CLI::App& cmd, SubmitOptions& o) {
  cmd.add_flag("--dry-run", o.dry_run, "Print the manifests (YAML stream) and send nothing");
  cmd.add_option("-o,--output", o.output, "Format of --dry-run: yaml or json")->capture_default_str();
  // A flag, so that `--wait CMD` leaves CMD to the positional command; --wait=finished sets it.
  cmd.add_flag("--wait{running}", o.wait,
               "Wait until every pod runs; --wait=finished waits until the job ends");
  cmd.add_option("--timeout", o.timeout, "Give up waiting after this long, e.g. 10m");
  cmd.add_option("--template-dir", o.template_dir,
                 "Directory of templates overriding the built-in ones (also TRAINCTL_TEMPLATE_DIR)");
  cmd.add_option("command", o.command_args, "The command, run with the shell in the working directory");
}

// Elastic PyTorchJob flags (spec.elasticPolicy). Registered, hidden, on the commands that
// refuse them too, so that plan_elastic says why in one line.
void add_elastic_flags(CLI::App& cmd, SubmitOptions& o, bool visible) {
  const std::vector<CLI::Option*> flags = {
      cmd.add_option("--min-workers", o.min_workers,
                     "Elastic job: fewest Worker pods it runs with (no Master)"),
      cmd.add_option("--max-workers", o.max_workers, "Elastic job: most Worker pods it runs with"),
      cmd.add_option("--max-restarts", o.max_restarts,
                     "Elastic job: restarts of the worker group before it fails (PET_MAX_RESTARTS)"),
      cmd.add_option("--rdzv-backend", o.rdzv_backend,
                     "Elastic job: torchrun's rendezvous backend (default c10d)"),
      cmd.add_option("--rdzv-port", o.rdzv_port, "Elastic job: rendezvous port on worker-0 (default 23456)")};
  if (!visible)
    for (auto* f : flags) f->group("");
}

}  // namespace

void add_training_flags(CLI::App& cmd, SubmitOptions& o, jobs::Trainer trainer) {
  o.trainer = trainer;
  const SubmitKind::Rules& rules = submit_kind_for(trainer).rules;
  add_pod_flags(cmd, o);
  cmd.add_option("--workers", o.workers,
                 rules.launcher_pods > 0 ? "Number of worker pods (the launcher is extra)"
                                         : "Number of pods, the master included")
      ->capture_default_str();
  cmd.add_option("--sync-mode", o.sync_mode, "Fetch code before start: git or rsync");
  alias(cmd, "--syncMode", o.sync_mode);
  cmd.add_option("--sync-source", o.sync_source,
                 "Git URL or rsync source of the code (lands in WORKING_DIR/code/)");
  alias(cmd, "--syncSource", o.sync_source);
  cmd.add_option("--sync-image", o.sync_image, "Image of the code-sync init container");
  alias(cmd, "--syncImage", o.sync_image);
  cmd.add_flag("--tensorboard", o.tensorboard,
               "Run TensorBoard (Deployment + NodePort Service NAME-tensorboard)");
  cmd.add_option("--logdir", o.logdir, "Event directory TensorBoard reads")->capture_default_str();
  cmd.add_option("--tensorboard-image", o.tensorboard_image, "TensorBoard image");
  alias(cmd, "--tensorboardImage", o.tensorboard_image);
  cmd.add_option("--running-timeout", o.running_timeout,
                 "Stop the job after it ran this long (activeDeadlineSeconds)");
  cmd.add_option("--clean-task-policy", o.clean_task_policy,
                 "Pods to delete when the job ends: Running, All or None (default " +
                     rules.default_clean_pod_policy + ")");
  alias(cmd, "--cleanTaskPolicy", o.clean_task_policy);
  cmd.add_option("--share-memory", o.shm_size, "Size of /dev/shm (default 2Gi)");
  alias(cmd, "--shm-size", o.shm_size);
  cmd.add_option("--scheduler", o.scheduler, "schedulerName of the pods, e.g. volcano");
  cmd.add_flag("--gang", o.gang,
               "Gang-schedule the pods (runPolicy.schedulingPolicy and the coscheduling pod-group labels)");
  // A flag, as Arena's --queue is a switch: `--queue CMD` leaves CMD to the command.
  cmd.add_flag("--queue{true}", o.queue,
               "Queue the job in kube-queue (Arena's switch: scheduling.x-k8s.io/suspend); "
               "--queue=NAME names the gang scheduler's queue (runPolicy.schedulingPolicy.queue)");
  cmd.add_option("--kueue-queue", o.kueue_queue,
                 "Kueue LocalQueue of the job (label kueue.x-k8s.io/queue-name): it waits there for quota. "
                 "The submit fails, and removes the job, where Kueue does not hold the kind (Kueue v0.19 "
                 "and later leave PyTorchJob and TFJob out unless the admin enables them)");
  cmd.add_option("--min-available", o.min_available, "Pods that must be schedulable together (default: all)");
  alias(cmd, "--minAvailable", o.min_available);
  cmd.add_option("--schedule-timeout", o.schedule_timeout, "Gang scheduling timeout, e.g. 180s");
  repeatable(cmd, "--min-resources", o.min_resources, "Gang minimum resources NAME=QUANTITY (repeatable)");
  auto* topo =
      cmd.add_flag("--gputopology", o.gputopology,
                   "ACK's topology-aware GPU placement: workers request aliyun.com/gpu and carry the gpu-topology "
                   "labels, with no /dev/shm volume; pods stay on the pod network (Arena's hostNetwork is not "
                   "set: workers run sshd, and two on one node's network cannot both bind its port)");
  auto* slots = cmd.add_option("--slots-per-worker", o.slots_per_worker,
                               "MPI slots per worker (default: GPUs, at least 1)");
  auto* launcher_cpu = cmd.add_option("--launcher-cpu", o.launcher_cpu,
                                      "CPU request and limit of the launcher (default: none)");
  auto* launcher_memory = cmd.add_option("--launcher-memory", o.launcher_memory,
                                         "Memory request and limit of the launcher (default: none)");
  auto* nproc =
      cmd.add_option("--nproc-per-node", o.nproc_per_node, "torchrun processes per pod: auto, cpu, gpu or N");
  auto* worker_image = cmd.add_option("--worker-image", o.worker_image,
                                      "Image of the workers, instead of --image (which the master keeps); "
                                      "alone, the image of every pod");
  auto* api = cmd.add_option("--api", o.api,
                             "What the job is made as, trainer a TrainJob on the ClusterTrainingRuntime "
                             "torch-distributed, training-operator a PyTorchJob, none an Indexed Job + headless "
                             "Service (default: a PyTorchJob, or a TrainJob where the cluster serves only Kubeflow "
                             "Trainer v2): trainer, training-operator or none");
  auto* op = cmd.add_option("--operator", o.operator_,
                            "none: run without the training-operator (Indexed Job + headless Service); "
                            "the same as --api none");
  auto* port = cmd.add_option("--master-port", o.master_port, "MASTER_PORT with --operator none")
                   ->capture_default_str();
  if (!rules.torchrun_flags) {
    nproc->group("");
    api->group("");
    op->group("");
    port->group("");
  }
  if (rules.worker_image == WorkerImage::Refused) worker_image->group("");
  add_elastic_flags(cmd, o, rules.elastic_flags);
  if (rules.mpi_flags)
    cmd.get_option("--hostNetwork")
        ->description("Pods use the node's network (dnsPolicy ClusterFirstWithHostNet); each worker's sshd binds "
                      "the node's port there, so no two workers may share a node");
  if (!rules.mpi_flags) {
    topo->group("");
    slots->group("");
    launcher_cpu->group("");
    launcher_memory->group("");
  }
  add_output_flags(cmd, o);
}

void add_pytorch_flags(CLI::App& cmd, SubmitOptions& o) { add_training_flags(cmd, o, jobs::Trainer::PyTorch); }

// submit trainjob: the flags a TrainJob has a field for (kinds/trainjob.cpp), no others.
void add_trainjob_flags(CLI::App& cmd, SubmitOptions& o) {
  o.trainer = jobs::Trainer::TrainJob;
  cmd.add_option("--name", o.name, "TrainJob name (required; lower-case letters, digits, '-')")->required();
  cmd.add_option("--runtime", o.runtime,
                 "The runtime the job runs on (spec.runtimeRef.name; required; see trainctl runtime list)");
  cmd.add_option("--runtime-kind", o.runtime_kind,
                 "Kind of the runtime, a TrainingRuntime being the namespace's: ClusterTrainingRuntime or TrainingRuntime")
      ->capture_default_str();
  cmd.add_option("--image", o.image, "Image of the training nodes (trainer.image; default: the runtime's)");
  cmd.add_option("--workers", o.workers, "Number of training nodes (trainer.numNodes)")->capture_default_str();
  cmd.add_option("--gpus", o.gpus, "GPUs per node (trainer.resourcesPerNode, nvidia.com/gpu)");
  cmd.add_option("--cpu", o.cpu, "CPU request and limit per node, e.g. 4 or 500m");
  cmd.add_option("--memory", o.memory, "Memory request and limit per node, e.g. 8Gi");
  repeatable(cmd, "--device", o.devices, "Another device resource per node VENDOR/RESOURCE=COUNT (repeatable)");
  cmd.add_option("--nproc-per-node", o.nproc_per_node, "Processes per node (trainer.numProcPerNode): N, or auto");
  repeatable(cmd, "-e,--env", o.envs, "Environment variable KEY=VALUE of the trainer (trainer.env; repeatable)");
  cmd.add_option("--working-dir", o.working_dir, "Directory the command runs in")->capture_default_str();
  cmd.add_option("--shell", o.shell, "Shell that runs the command: sh or bash")->capture_default_str();
  repeatable(cmd, "--arg", o.trainer_args, "An argument of the runtime's command (trainer.args; repeatable)");
  repeatable(cmd, "-d,--data", o.data, "Mount a PVC on the nodes: PVC_NAME:/mount/path (repeatable)");
  repeatable(cmd, "--data-dir", o.data_dirs, "Mount a host directory: /host/path[:/mount/path] (repeatable)");
  repeatable(cmd, "--selector", o.selectors, "Node selector KEY=VALUE of the pods (repeatable)");
  repeatable(cmd, "--toleration", o.tolerations, "Toleration KEY[=VALUE][:EFFECT], or all (repeatable)");
  repeatable(cmd, "-a,--annotation", o.annotations, "Annotation KEY=VALUE on the TrainJob and its pods (repeatable)");
  repeatable(cmd, "-l,--label", o.labels, "Label KEY=VALUE on the TrainJob and its pods (repeatable)");
  repeatable(cmd, "--image-pull-secret", o.image_pull_secrets, "Image pull secret name (repeatable)");
  cmd.add_option("--service-account", o.service_account, "ServiceAccount of the pods (serviceAccountName)");
  cmd.add_option("--dataset-uri", o.dataset_uri,
                 "Dataset the runtime's dataset initializer fetches, e.g. hf://tatsu-lab/alpaca");
  cmd.add_option("--model-uri", o.model_uri,
                 "Model the runtime's model initializer fetches, e.g. hf://meta-llama/Llama-3.2-1B-Instruct");
  cmd.add_flag("--tensorboard", o.tensorboard, "Run TensorBoard (Deployment + NodePort Service NAME-tensorboard)");
  cmd.add_option("--logdir", o.logdir, "Event directory TensorBoard reads")->capture_default_str();
  cmd.add_option("--tensorboard-image", o.tensorboard_image, "TensorBoard image");
  cmd.add_option("--running-timeout", o.running_timeout, "Stop the job after it ran this long (activeDeadlineSeconds)");
  cmd.add_option("--kueue-queue", o.kueue_queue,
                 "Kueue LocalQueue of the TrainJob (label kueue.x-k8s.io/queue-name): it waits there for quota");
  add_output_flags(cmd, o);
}
void add_mpi_flags(CLI::App& cmd, SubmitOptions& o) { add_training_flags(cmd, o, jobs::Trainer::MPI); }

namespace {

// One TFJob replica type's own flags (--ps-port, --ps-cpu...); TYPE names it in the help.
void add_tf_replica_flags(CLI::App& cmd, const std::string& prefix, const std::string& type,
                          TFReplicaOptions& r) {
  cmd.add_option("--" + prefix + "-port", r.port,
                 "Port tfjob-port of the " + type +
                     ", on the container tensorflow that the training-operator configures (default: the "
                     "operator's 2222; Arena picks a free port)");
  cmd.add_option("--" + prefix + "-cpu", r.cpu, "CPU request and limit of the " + type + " (default: --cpu)");
  cmd.add_option("--" + prefix + "-memory", r.memory,
                 "Memory request and limit of the " + type + " (default: --memory)");
  repeatable(cmd, "--" + prefix + "-selector", r.selectors,
             "Node selector KEY=VALUE of the " + type + ", instead of --selector (repeatable)");
}

}  // namespace

void add_tf_flags(CLI::App& cmd, SubmitOptions& o) {
  add_training_flags(cmd, o, jobs::Trainer::TF);
  TFOptions& tf = o.tf;
  cmd.get_option("--worker-image")
      ->description(
          "Image of the workers, the chief and the evaluator, instead of --image (which the "
          "parameter servers keep unless --ps-image); alone, the image of every pod");
  alias(cmd, "--workerImage", o.worker_image);
  cmd.get_option("--workers")
      ->description("Number of Worker replicas (the PS, chief and evaluator are extra)");
  cmd.get_option("--gpus")->description(
      "GPUs per worker, chief and evaluator (nvidia.com/gpu; the parameter servers take --ps-gpus)");
  cmd.add_option("--ps", tf.ps, "Number of parameter servers (PS replicas)")->capture_default_str();
  cmd.add_option("--ps-image", tf.ps_image, "Image of the parameter servers (default: --image)");
  alias(cmd, "--psImage", tf.ps_image);
  cmd.add_option("--ps-gpus", tf.ps_gpus, "GPUs per parameter server (--gpus is not theirs)")
      ->capture_default_str();
  add_tf_replica_flags(cmd, "ps", "parameter servers", tf.ps_replica);
  alias(cmd, "--psPort", tf.ps_replica.port);
  alias(cmd, "--psCpu", tf.ps_replica.cpu);
  alias(cmd, "--psMemory", tf.ps_replica.memory);
  add_tf_replica_flags(cmd, "worker", "workers", tf.worker);
  alias(cmd, "--workerPort", tf.worker.port);
  alias(cmd, "--workerCpu", tf.worker.cpu);
  alias(cmd, "--workerMemory", tf.worker.memory);
  cmd.add_flag("--chief", tf.chief,
               "Add a Chief replica (TensorFlow Estimator's chief; it decides when the job succeeded)");
  add_tf_replica_flags(cmd, "chief", "chief", tf.chief_replica);
  alias(cmd, "--chiefPort", tf.chief_replica.port);
  alias(cmd, "--ChiefCpu", tf.chief_replica.cpu);
  alias(cmd, "--ChiefMemory", tf.chief_replica.memory);
  cmd.add_flag("--evaluator", tf.evaluator, "Add an Evaluator replica (TensorFlow Estimator's evaluator)");
  add_tf_replica_flags(cmd, "evaluator", "evaluator", tf.evaluator_replica);
  alias(cmd, "--evaluatorCpu", tf.evaluator_replica.cpu);
  alias(cmd, "--evaluatorMemory", tf.evaluator_replica.memory);
  cmd.add_option("--success-policy", tf.success_policy,
                 "When the job succeeded: ChiefWorker (the chief, else worker 0, succeeded; the operator's "
                 "default) or AllWorkers")
      ->capture_default_str();
}

void add_volcano_flags(CLI::App& cmd, SubmitOptions& o) {
  o.trainer = jobs::Trainer::Volcano;
  add_pod_flags(cmd, o);
  repeatable(cmd, "--task", o.tasks,
             "Task NAME:REPLICAS[:IMAGE[:COMMAND]] (repeatable; default image and command: "
             "--image and the positional command)");
  repeatable(cmd, "--task-images", o.task_images,
             "Arena style: one task per image, named TASK-NAME-I (comma-separated or repeated)")
      ->delimiter(',');
  alias(cmd, "--taskImages", o.task_images);
  repeatable(cmd, "--task-label", o.task_labels,
             "Label on one task's pods TASK:KEY=VALUE, e.g. pserver:paddle-job-pserver=fluid-ctr (repeatable)");
  repeatable(cmd, "--task-policy", o.task_policies,
             "Policy of one task TASK:EVENT=ACTION, e.g. trainer:TaskCompleted=CompleteJob (repeatable)");
  repeatable(cmd, "--policy", o.policies,
             "Job policy EVENT=ACTION, replacing the default PodEvicted=RestartJob and PodFailed=RestartJob "
             "(repeatable)");
  cmd.add_option("--task-replicas", o.task_replicas, "Arena style: replicas of each --task-images task")
      ->capture_default_str();
  alias(cmd, "--taskReplicas", o.task_replicas);
  cmd.add_option("--task-name", o.task_name, "Arena style: name (prefix) of the tasks")
      ->capture_default_str();
  alias(cmd, "--taskName", o.task_name);
  cmd.add_option("--task-cpu", o.cpu, "Arena style: same as --cpu");
  alias(cmd, "--taskCPU", o.cpu);
  cmd.add_option("--task-memory", o.memory, "Arena style: same as --memory");
  alias(cmd, "--taskMemory", o.memory);
  cmd.add_option("--task-port", o.task_port, "Container port of every task");
  alias(cmd, "--taskPort", o.task_port);
  cmd.add_option("--min-available", o.min_available, "Pods that must be schedulable together (default: all)");
  alias(cmd, "--minAvailable", o.min_available);
  cmd.add_option("--queue", o.queue, "Volcano queue (default: default)");
  // Kueue does not manage Volcano jobs: hidden, so that plan_kueue says so in one line.
  cmd.add_option("--kueue-queue", o.kueue_queue)->group("");
  cmd.add_option("--scheduler-name", o.scheduler_name, "schedulerName (default volcano)");
  alias(cmd, "--schedulerName", o.scheduler_name);
  alias(cmd, "--scheduler", o.scheduler_name);
  add_elastic_flags(cmd, o, false);
  add_output_flags(cmd, o);
}

}  // namespace trainctl::submit
