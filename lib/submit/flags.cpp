#include "submit/flags.h"

namespace trainctl::submit {

void add_pod_flags(FlagSet& f, SubmitOptions& o) {
  f.option("--name", o.name, "Job name (required; lower-case letters, digits, '-')").require();
  f.option("--image", o.image, "Container image of the job");
  f.option("--gpus", o.gpus, "GPUs per pod (nvidia.com/gpu)");
  f.option("--cpu", o.cpu, "CPU request and limit per pod, e.g. 4 or 500m");
  f.option("--memory", o.memory, "Memory request and limit per pod, e.g. 8Gi");
  f.option("--working-dir", o.working_dir, "Working directory of the command").with_default();
  f.alias("--workingDir", o.working_dir);
  f.repeatable("-e,--env", o.envs, "Environment variable KEY=VALUE (repeatable)");
  f.repeatable("-d,--data", o.data, "Mount a PVC: PVC_NAME:/mount/path (repeatable)");
  f.repeatable("--data-dir", o.data_dirs, "Mount a host directory: /host/path[:/mount/path] (repeatable)");
  f.alias("--dataDir", o.data_dirs);
  f.repeatable("--selector", o.selectors, "Node selector KEY=VALUE (repeatable)");
  f.repeatable("--toleration", o.tolerations, "Toleration KEY[=VALUE][:EFFECT], or all (repeatable)");
  f.repeatable("-a,--annotation", o.annotations, "Annotation KEY=VALUE on the job and its pods (repeatable)");
  f.repeatable("-l,--label", o.labels, "Label KEY=VALUE on the job and its pods (repeatable)");
  f.repeatable("--image-pull-secret", o.image_pull_secrets, "Image pull secret name (repeatable)");
  f.alias("--imagePullSecret", o.image_pull_secrets);
  f.option("--image-pull-policy", o.image_pull_policy,
           "When to pull the images: Always (default, as Arena), IfNotPresent or Never");
  f.alias("--imagePullPolicy", o.image_pull_policy);
  f.repeatable("--device", o.devices,
               "Another device resource per pod VENDOR/RESOURCE=COUNT, e.g. amd.com/gpu=1 (repeatable)");
  f.repeatable(
      "--config-file", o.config_files,
      "Ship a host file to the pods: HOST_FILE[:/container/path] (repeatable; a ConfigMap per directory)");
  f.alias("--configFile", o.config_files);
  f.flag("--rdma", o.rdma, "Request an RDMA device (rdma/hca: 1) and the IPC_LOCK capability");
  f.option("--service-account", o.service_account,
           "ServiceAccount every pod of the job runs as (serviceAccountName), e.g. one allowed to list "
           "pods; default: the namespace's default");
  f.flag("--hostNetwork,--host-network", o.host_network,
         "Pods use the node's network (dnsPolicy ClusterFirstWithHostNet)");
  f.flag("--hostIPC,--host-ipc", o.host_ipc, "Pods use the node's IPC namespace");
  f.flag("--hostPID,--host-pid", o.host_pid, "Pods use the node's process namespace");
  f.option("-p,--priority", o.priority, "PriorityClass of the pods");
  f.option("--shell", o.shell, "Shell that runs the command: sh or bash").with_default();
  f.option("--retry", o.retry,
           "Retries before the job is marked failed (backoffLimit; default: the operator's own)");
  f.option("--ttl-after-finished", o.ttl_after_finished, "Delete the job this long after it ends, e.g. 1h");
}

void add_output_flags(FlagSet& f, SubmitOptions& o) {
  f.flag("--dry-run", o.dry_run, "Print the manifests (YAML stream) and send nothing");
  f.option("-o,--output", o.output, "Format of --dry-run: yaml or json").with_default();
  // A flag, so that `--wait CMD` leaves CMD to the positional command; --wait=finished sets it.
  f.flag("--wait{running}", o.wait, "Wait until every pod runs; --wait=finished waits until the job ends");
  f.option("--timeout", o.timeout, "Give up waiting after this long, e.g. 10m");
  f.option("--template-dir", o.template_dir,
           "Directory of templates overriding the built-in ones (also TRAINCTL_TEMPLATE_DIR)");
  f.option("command", o.command_args, "The command, run with the shell in the working directory");
}

void add_code_sync_flags(FlagSet& f, SubmitOptions& o) {
  f.option("--sync-mode", o.sync_mode, "Fetch code before start: git or rsync");
  f.alias("--syncMode", o.sync_mode);
  f.option("--sync-source", o.sync_source,
           "Git URL or rsync source of the code (lands in WORKING_DIR/code/)");
  f.alias("--syncSource", o.sync_source);
  f.option("--sync-image", o.sync_image, "Image of the code-sync init container");
  f.alias("--syncImage", o.sync_image);
}

void add_worker_image_flag(FlagSet& f, SubmitOptions& o, const SubmitKind::Rules& rules) {
  Flag& flag = f.option("--worker-image", o.worker_image,
                        "Image of the workers, instead of --image (which the master keeps); "
                        "alone, the image of every pod");
  if (rules.worker_image == WorkerImage::Refused) flag.hide();
}

void add_training_flags(FlagSet& f, SubmitOptions& o, const SubmitKind::Rules& rules,
                        const std::function<void()>& kind_flags) {
  add_pod_flags(f, o);
  f.option("--workers", o.workers,
           rules.launcher_pods > 0 ? "Number of worker pods (the launcher is extra)"
                                   : "Number of pods, the master included")
      .with_default();
  add_code_sync_flags(f, o);
  f.flag("--tensorboard", o.tensorboard, "Run TensorBoard (Deployment + NodePort Service NAME-tensorboard)");
  f.option("--logdir", o.logdir, "Event directory TensorBoard reads").with_default();
  f.option("--tensorboard-image", o.tensorboard_image, "TensorBoard image");
  f.alias("--tensorboardImage", o.tensorboard_image);
  f.option("--running-timeout", o.running_timeout,
           "Stop the job after it ran this long (activeDeadlineSeconds)");
  f.option("--clean-task-policy", o.clean_task_policy,
           "Pods to delete when the job ends: Running, All or None (default " +
               rules.default_clean_pod_policy + ")");
  f.alias("--cleanTaskPolicy", o.clean_task_policy);
  f.option("--share-memory", o.shm_size, "Size of /dev/shm (default 2Gi)");
  f.alias("--shm-size", o.shm_size);
  f.option("--scheduler", o.scheduler, "schedulerName of the pods, e.g. volcano");
  f.flag("--gang", o.gang,
         "Gang-schedule the pods (runPolicy.schedulingPolicy and the coscheduling pod-group labels)");
  // A flag, as Arena's --queue is a switch: `--queue CMD` leaves CMD to the command.
  f.flag("--queue{true}", o.queue,
         "Queue the job in kube-queue (Arena's switch: scheduling.x-k8s.io/suspend); "
         "--queue=NAME names the gang scheduler's queue (runPolicy.schedulingPolicy.queue)");
  f.option("--kueue-queue", o.kueue_queue,
           "Kueue LocalQueue of the job (label kueue.x-k8s.io/queue-name): it waits there for quota. "
           "The submit fails, and removes the job, where Kueue does not hold the kind (Kueue v0.19 "
           "and later leave PyTorchJob and TFJob out unless the admin enables them)");
  f.option("--min-available", o.min_available, "Pods that must be schedulable together (default: all)");
  f.alias("--minAvailable", o.min_available);
  f.option("--schedule-timeout", o.schedule_timeout, "Gang scheduling timeout, e.g. 180s");
  f.repeatable("--min-resources", o.min_resources, "Gang minimum resources NAME=QUANTITY (repeatable)");
  if (kind_flags) kind_flags();
  if (!f.lookup("--worker-image")) add_worker_image_flag(f, o, rules);
  add_output_flags(f, o);
}

}  // namespace trainctl::submit
