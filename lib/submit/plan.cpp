#include "submit/plan.h"

#include <algorithm>
#include <cctype>
#include <regex>
#include <set>

#include "core/errors.h"
#include "submit/parse.h"

namespace trainctl::submit {

namespace {

std::string trainer_command(jobs::Trainer t) {
  switch (t) {
    case jobs::Trainer::MPI:
      return "mpi";
    case jobs::Trainer::Volcano:
      return "volcano";
    default:
      return "pytorch";
  }
}

std::vector<KeyValue> key_values(const std::string& flag, const std::vector<std::string>& items,
                                 bool label_key, bool label_value) {
  std::vector<KeyValue> out;
  for (const auto& item : items) {
    KeyValue kv = parse_key_value(flag, item);
    if (label_key && !is_label_key(kv.key))
      throw UsageError("invalid " + flag + " " + dq(item) + ": " + dq(kv.key) +
                       " is not a valid key ([prefix/]name, letters, digits, '-', '_', '.')");
    if (label_value && !is_label_value(kv.value))
      throw UsageError("invalid " + flag + " " + dq(item) + ": " + dq(kv.value) +
                       " is not a valid label value (at most 63 letters, digits, '-', '_', '.')");
    // A repeated key: the last one wins, in its first position.
    auto it = std::find_if(out.begin(), out.end(), [&](const KeyValue& e) { return e.key == kv.key; });
    if (it != out.end()) {
      it->value = kv.value;
    } else {
      out.push_back(kv);
    }
  }
  return out;
}

void check_quantity(const std::string& flag, const std::string& value) {
  if (!value.empty() && !is_quantity(value))
    throw UsageError("invalid " + flag + " " + dq(value) +
                     ": use a Kubernetes quantity such as 500m, 2, 4Gi or 512Mi");
}

bool under(const std::string& path, const std::string& dir) {
  if (path == dir) return true;
  std::string d = dir.back() == '/' ? dir : dir + "/";
  return path.compare(0, d.size(), d) == 0;
}

// Checks the name against Kubernetes' limits on everything derived from it.
void check_name(const Plan& p) {
  const std::string& n = p.name;
  if (n.empty()) throw UsageError("--name is required");
  if (!is_dns1123_label(n) || !std::isalpha(static_cast<unsigned char>(n[0])))
    throw UsageError("invalid --name " + dq(n) +
                     ": use lower-case letters, digits and '-', starting with a letter and ending with a "
                     "letter or digit");
  std::vector<std::string> derived;
  switch (p.kind->trainer) {
    case jobs::Trainer::PyTorch:
      derived.push_back(n + "-master-0");
      if (p.workers > 1) derived.push_back(n + "-worker-" + std::to_string(p.workers - 2));
      break;
    case jobs::Trainer::MPI:
      derived.push_back(n + "-launcher-xxxxx");
      derived.push_back(n + "-worker-" + std::to_string(p.workers - 1));
      break;
    case jobs::Trainer::PyTorchNoOperator:
      derived.push_back(n + "-" + std::to_string(p.workers - 1) + "-xxxxx");
      break;
    case jobs::Trainer::Volcano:
      for (const auto& t : p.tasks)
        derived.push_back(n + "-" + t.name + "-" + std::to_string(t.replicas - 1));
      break;
  }
  if (p.tensorboard) derived.push_back(n + "-tensorboard");
  for (const auto& d : derived) {
    if (d.size() > 63)
      throw UsageError("--name " + dq(n) + " is too long: the derived name " + dq(d) + " would have " +
                       std::to_string(d.size()) + " characters (at most 63)");
  }
}

}  // namespace

int default_min_available(const Plan& p) {
  if (p.kind->trainer != jobs::Trainer::MPI) return p.expected_pods;
  // mpi-operator's own default counts the launcher (podgroup.go calculateMinAvailable), but
  // with WaitForWorkersReady the launcher only exists once the workers run.
  return p.launcher_creation_policy == "WaitForWorkersReady" ? p.workers : p.workers + 1;
}

Plan make_plan(const SubmitOptions& o, const std::string& namespace_) {
  Plan p;
  const bool pytorch = o.trainer == jobs::Trainer::PyTorch || o.trainer == jobs::Trainer::PyTorchNoOperator;
  jobs::Trainer trainer = o.trainer;
  if (pytorch) {
    if (o.operator_ == "none") {
      trainer = jobs::Trainer::PyTorchNoOperator;
    } else if (!o.operator_.empty() && o.operator_ != "training-operator") {
      throw UsageError("invalid --operator " + dq(o.operator_) + ": use none or training-operator");
    }
  } else if (!o.operator_.empty()) {
    throw UsageError("--operator is only for submit pytorch");
  } else if (!o.worker_image.empty()) {
    throw UsageError("--worker-image is only for submit pytorch");
  }
  p.kind = &jobs::kind_for(trainer);
  p.template_kind = trainer == jobs::Trainer::PyTorchNoOperator ? "pytorch-none" : trainer_command(trainer);
  p.name = o.name;
  p.namespace_ = namespace_;
  // --worker-image alone is every pod's image; with --image, only the workers'.
  p.image = o.image.empty() ? o.worker_image : o.image;
  if (!o.image.empty() && o.worker_image != o.image) p.worker_image = o.worker_image;
  if (trainer == jobs::Trainer::PyTorchNoOperator && !p.worker_image.empty())
    throw UsageError("--worker-image differs from --image, but with --operator none every pod runs one "
                     "template: give one image");
  p.gpus = o.gpus;
  p.workers = o.workers;
  p.cpu = o.cpu;
  p.memory = o.memory;
  p.working_dir = o.working_dir;
  p.shell = o.shell;
  for (size_t i = 0; i < o.command_args.size(); ++i) p.command += (i ? " " : "") + o.command_args[i];

  const std::string cmd = "submit " + trainer_command(o.trainer);
  if (o.trainer != jobs::Trainer::Volcano && p.image.empty())
    throw UsageError(pytorch ? "--image (or --worker-image) must be set" : "--image must be set");
  if (o.workers < 1) throw UsageError("--workers must be at least 1");
  if (o.gpus < 0) throw UsageError("--gpus must not be negative");
  if (o.retry && *o.retry < 0) throw UsageError("--retry must not be negative");
  if (o.shell != "sh" && o.shell != "bash")
    throw UsageError("invalid --shell " + dq(o.shell) + ": use sh or bash");
  if (o.working_dir.empty() || o.working_dir[0] != '/')
    throw UsageError("invalid --working-dir " + dq(o.working_dir) + ": use an absolute path");
  check_quantity("--cpu", o.cpu);
  check_quantity("--memory", o.memory);
  check_quantity("--share-memory", o.shm_size);
  check_quantity("--launcher-cpu", o.launcher_cpu);
  check_quantity("--launcher-memory", o.launcher_memory);
  if (o.gputopology && o.trainer != jobs::Trainer::MPI)
    throw UsageError("--gputopology is only for submit mpi");
  if (o.slots_per_worker != 0 && o.trainer != jobs::Trainer::MPI)
    throw UsageError("--slots-per-worker is only for submit mpi");
  if (o.slots_per_worker < 0) throw UsageError("--slots-per-worker must be at least 1");
  if ((!o.launcher_cpu.empty() || !o.launcher_memory.empty()) && o.trainer != jobs::Trainer::MPI)
    throw UsageError("--launcher-cpu and --launcher-memory are only for submit mpi");
  if (!o.nproc_per_node.empty()) {
    if (!pytorch) throw UsageError("--nproc-per-node is only for submit pytorch");
    static const std::regex nproc("auto|cpu|gpu|[1-9][0-9]*");
    if (!std::regex_match(o.nproc_per_node, nproc))
      throw UsageError("invalid --nproc-per-node " + dq(o.nproc_per_node) +
                       ": use auto, cpu, gpu or a number");
  }
  if (o.trainer == jobs::Trainer::Volcano &&
      (o.tensorboard || !o.sync_mode.empty() || !o.sync_source.empty()))
    throw UsageError("--tensorboard and --sync-mode are not available on " + cmd);
  p.nproc_per_node = o.nproc_per_node;
  if (o.master_port < 1 || o.master_port > 65535)
    throw UsageError("--master-port must be between 1 and 65535");
  p.master_port = o.master_port;

  p.envs = key_values("--env", o.envs, false, false);
  p.selectors = key_values("--selector", o.selectors, true, true);
  p.annotations = key_values("--annotation", o.annotations, true, false);
  p.labels = key_values("--label", o.labels, true, true);
  p.min_resources = key_values("--min-resources", o.min_resources, false, false);
  for (const auto& r : p.min_resources) check_quantity("--min-resources " + r.key, r.value);
  for (const auto& t : o.tolerations) p.tolerations.push_back(parse_toleration(t));
  for (const auto& s : o.image_pull_secrets) {
    if (!is_dns1123_subdomain(s)) throw UsageError("invalid --image-pull-secret " + dq(s));
    p.image_pull_secrets.push_back(s);
  }
  if (!o.image_pull_policy.empty() && o.image_pull_policy != "Always" && o.image_pull_policy != "IfNotPresent" &&
      o.image_pull_policy != "Never")
    throw UsageError("invalid --image-pull-policy " + dq(o.image_pull_policy) + ": use Always, IfNotPresent or Never");
  // Arena's default (pkg/argsbuilder/submit.go: --image-pull-policy "Always").
  p.image_pull_policy = o.image_pull_policy.empty() ? "Always" : o.image_pull_policy;
  p.devices = device_resources(o);
  // ACK's GPU sharing (a gpu-mem device, or the gpu-count label of its scheduler): Arena's
  // hasAliyunGPUConfig (pkg/argsbuilder/submit.go) then keeps NVIDIA_VISIBLE_DEVICES as it is.
  p.gpu_share = std::any_of(p.labels.begin(), p.labels.end(),
                            [](const KeyValue& kv) { return kv.key == "aliyun.com/gpu-count" && !kv.value.empty(); }) ||
                std::any_of(p.devices.begin(), p.devices.end(),
                            [](const KeyValue& kv) { return kv.key == "aliyun.com/gpu-mem"; });
  p.rdma = o.rdma;
  p.host_network = o.host_network || o.gputopology;
  p.host_ipc = o.host_ipc;
  p.host_pid = o.host_pid;
  std::set<std::string> pvcs;
  std::set<std::string> paths;
  for (const auto& d : o.data) {
    DataMount m = parse_data(d);
    if (!pvcs.insert(m.pvc).second) throw UsageError("--data names PVC " + dq(m.pvc) + " twice");
    if (!paths.insert(m.path).second) throw UsageError("--data mounts two volumes at " + dq(m.path));
    p.data.push_back(m);
  }
  for (const auto& d : o.data_dirs) {
    HostMount h = parse_data_dir(d);
    if (!paths.insert(h.path).second) throw UsageError("--data-dir mounts two volumes at " + dq(h.path));
    p.data_dirs.push_back(h);
  }
  p.config_dirs = read_config_files(o.config_files, o.name);
  for (const auto& c : p.config_dirs)
    if (!paths.insert(c.path).second) throw UsageError("--config-file mounts a volume at " + dq(c.path) + " too");

  // Code sync.
  if (!o.sync_mode.empty() && o.sync_mode != "git" && o.sync_mode != "rsync")
    throw UsageError("invalid --sync-mode " + dq(o.sync_mode) + ": use git or rsync");
  if (!o.sync_mode.empty() && o.sync_source.empty()) throw UsageError("--sync-mode needs --sync-source");
  if (o.sync_mode.empty() && !o.sync_source.empty())
    throw UsageError("--sync-source needs --sync-mode (git or rsync)");
  if (o.sync_mode.empty() && !o.sync_image.empty())
    throw UsageError("--sync-image needs --sync-mode (git or rsync)");
  p.sync_mode = o.sync_mode;
  p.sync_source = o.sync_source;
  p.sync_image = o.sync_image;
  if (p.sync_mode == "git") {
    p.sync_repo = git_repo_name(o.sync_source);
    if (p.sync_repo.empty())
      throw UsageError("invalid --sync-source " + dq(o.sync_source) + ": no repository name");
    if (p.sync_image.empty()) p.sync_image = "registry.cn-zhangjiakou.aliyuncs.com/acs/git-sync:v3.3.5";
  } else if (p.sync_mode == "rsync" && p.sync_image.empty()) {
    p.sync_image = "registry.cn-zhangjiakou.aliyuncs.com/acs/rsync:v3.1.0-aliyun";
  }

  // TensorBoard.
  p.tensorboard = o.tensorboard;
  p.logdir = o.logdir;
  p.tensorboard_image = o.tensorboard_image.empty()
                            ? "registry.cn-zhangjiakou.aliyuncs.com/acs/tensorflow:1.12.0-devel"
                            : o.tensorboard_image;
  if (p.tensorboard) {
    // Arena passes a logdir with a scheme (oss://, hdfs://, s3://, gs://) to TensorBoard as it
    // is: TensorBoard reads such stores itself, nothing is mounted.
    static const std::regex remote("[a-z][a-z0-9+.-]*://.+");
    p.logdir_remote = std::regex_match(p.logdir, remote);
    if (!p.logdir_remote && (p.logdir.empty() || p.logdir[0] != '/'))
      throw UsageError("invalid --logdir " + dq(p.logdir) + ": use an absolute path or a URL such as oss://bucket/logs");
    p.logdir_on_data = !p.logdir_remote && std::any_of(p.data.begin(), p.data.end(), [&](const DataMount& d) {
      return under(p.logdir, d.path);
    });
  }

  // Run policy.
  p.retry = o.retry;
  if (!o.running_timeout.empty()) {
    auto s = parse_seconds("--running-timeout", o.running_timeout);
    if (s > 0) p.active_deadline_seconds = s;
  }
  if (!o.ttl_after_finished.empty()) {
    auto s = parse_seconds("--ttl-after-finished", o.ttl_after_finished);
    if (s > 0) p.ttl_seconds_after_finished = s;
  }
  p.clean_pod_policy = o.clean_task_policy.empty() ? (o.trainer == jobs::Trainer::MPI ? "All" : "Running")
                                                   : o.clean_task_policy;
  if (p.clean_pod_policy != "Running" && p.clean_pod_policy != "All" && p.clean_pod_policy != "None")
    throw UsageError("invalid --clean-task-policy " + dq(p.clean_pod_policy) + ": use Running, All or None");
  if (!o.priority.empty() && !is_dns1123_subdomain(o.priority))
    throw UsageError("invalid --priority " + dq(o.priority) + ": give a PriorityClass name");
  p.priority = o.priority;
  p.scheduler = o.scheduler;
  if (!o.scheduler.empty() && !is_dns1123_subdomain(o.scheduler))
    throw UsageError("invalid --scheduler " + dq(o.scheduler));
  if (o.min_available < 0) throw UsageError("--min-available must be at least 1");

  // Shared memory: pytorch and mpi mount /dev/shm (2Gi by default), except with --gputopology.
  if (o.trainer != jobs::Trainer::Volcano && !o.gputopology)
    p.shm_size = o.shm_size.empty() ? "2Gi" : o.shm_size;

  if (o.trainer == jobs::Trainer::Volcano) {
    plan_tasks(o, p);
  } else {
    // --queue alone (or =true) is Arena's kube-queue switch (add_implicit_annotations);
    // --queue=NAME names the gang scheduler's queue.
    const bool named_queue = !o.queue.empty() && o.queue != "true" && o.queue != "false";
    p.gang = o.gang;
    p.scheduling_policy = o.gang || o.min_available > 0 || named_queue || !o.schedule_timeout.empty() ||
                          !p.min_resources.empty();
    if (!o.schedule_timeout.empty())
      p.schedule_timeout_seconds = parse_seconds("--schedule-timeout", o.schedule_timeout);
    p.queue = named_queue ? o.queue : "";
    const int pods = o.trainer == jobs::Trainer::MPI ? o.workers + 1 : o.workers;
    p.expected_pods = pods;
    p.min_available_given = o.min_available > 0;
    p.min_available = o.min_available > 0 ? o.min_available : default_min_available(p);
    if (o.trainer == jobs::Trainer::MPI && p.min_available > o.workers)
      throw UsageError("--min-available " + std::to_string(p.min_available) + " counts the launcher, which mpi-operator "
                       "creates only once the " + std::to_string(o.workers) +
                       " workers are ready (launcherCreationPolicy WaitForWorkersReady): a gang that waits for it "
                       "never forms; use at most " + std::to_string(o.workers));
    if (trainer == jobs::Trainer::PyTorchNoOperator && (p.scheduling_policy || o.queue == "true"))
      throw UsageError(
          "--gang, --queue, --min-available and --schedule-timeout need the training-operator "
          "(not --operator none)");
  }
  p.gputopology = o.gputopology;
  p.launcher_cpu = o.launcher_cpu;
  p.launcher_memory = o.launcher_memory;
  p.slots_per_worker = o.slots_per_worker > 0 ? o.slots_per_worker : std::max(1, o.gpus);

  if (o.dry_run && !o.wait.empty()) throw UsageError("--wait cannot be used with --dry-run");
  if (!o.wait.empty() && o.wait != "running" && o.wait != "finished")
    throw UsageError("invalid --wait=" + o.wait + ": use --wait (until every pod runs) or --wait=finished");
  if (o.output != "yaml" && o.output != "json")
    throw UsageError("invalid --output " + dq(o.output) + ": use yaml or json");
  if (!o.timeout.empty()) parse_seconds("--timeout", o.timeout);
  if (!namespace_.empty() && !is_dns1123_label(namespace_))
    throw UsageError("invalid namespace " + dq(namespace_));

  add_implicit_annotations(o, p);
  check_name(p);
  // Arena's pytorchjob and mpijob commands refuse a submit without a command ("not found
  // command args"): the image's entrypoint is rarely a distributed training run, and a missing
  // command is most often a flag that swallowed it. Checked last, after every flag.
  if (o.trainer != jobs::Trainer::Volcano && p.command.empty())
    throw UsageError(cmd + " needs the command to run, as its last argument, e.g. \"python train.py\"");
  return p;
}

}  // namespace trainctl::submit
