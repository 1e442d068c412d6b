// What a `trainctl submit ...` command line says, as plain data (no CLI11 types). The flag
// names and their Arena aliases are declared in submit/flags.h and by each kind (add_flags);
// validation and normalisation are in submit/plan.h.
#pragma once

#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "submit/kind_part.h"

namespace trainctl::submit {

class SubmitKind;

// A flag only other submit commands take, given to this one: SubmitKind::flags adds it hidden,
// and check_flags refuses it, naming the commands that take it.
struct ForeignFlag {
  std::string name;                 // its first long name: "--gputopology"
  std::string commands;             // "submit mpi"
  std::string value;                // as given; "" (or a switch's "false"): not given
  std::vector<std::string> values;  // a repeatable flag's
};

struct SubmitOptions {
  // The kind of the submit command (set by SubmitKind::flags; none: submit pytorch's).
  // submit_kind_for() resolves it with the command's flags (submit pytorch --api none: the
  // Indexed Job kind).
  const SubmitKind* kind = nullptr;
  // Common flags (SPEC "submit flags", Arena pkg/argsbuilder/submit.go).
  std::string name;
  std::string image;
  int gpus = 0;
  int workers = 1;
  std::string cpu;
  std::string memory;
  std::string working_dir = "/root";
  std::vector<std::string> envs;         // K=V
  std::vector<std::string> data;         // PVC:/path
  std::vector<std::string> data_dirs;    // HOST[:/path]
  std::vector<std::string> selectors;    // k=v
  std::vector<std::string> tolerations;  // key[=value][:effect] | all
  std::vector<std::string> annotations;  // k=v
  std::vector<std::string> labels;       // k=v
  std::vector<std::string> image_pull_secrets;
  std::string image_pull_policy;     // Always | IfNotPresent | Never; "" = Kubernetes' default
  std::vector<std::string> devices;  // VENDOR/RESOURCE=COUNT
  std::vector<std::string> config_files;  // HOST_FILE[:/container/path]
  bool rdma = false;
  bool host_network = false;
  std::string service_account;
  bool host_ipc = false;
  bool host_pid = false;
  std::string sync_mode;  // git | rsync
  std::string sync_source;
  std::string sync_image;
  bool tensorboard = false;
  std::string logdir = "/training_logs";
  std::string tensorboard_image;
  std::optional<int> retry;       // --retry; unset: the operator's / batch Job's default backoffLimit
  std::string running_timeout;     // duration -> activeDeadlineSeconds
  std::string ttl_after_finished;  // duration -> ttlSecondsAfterFinished
  std::string clean_task_policy;   // Running|All|None; empty = the kind's default
  std::string priority;            // priorityClassName
  std::string shm_size;            // empty = 2Gi
  std::string shell = "sh";
  std::string scheduler;
  bool gang = false;
  // pytorch/mpi: bare --queue (or --queue=true) is Arena's switch for kube-queue; --queue=NAME
  // names the runPolicy.schedulingPolicy queue. volcano: the Volcano queue.
  std::string queue;
  std::string kueue_queue;  // --kueue-queue: Kueue LocalQueue (label kueue.x-k8s.io/queue-name)
  int min_available = 0;  // 0 = default
  std::string schedule_timeout;
  std::vector<std::string> min_resources;  // k=v (schedulingPolicy.minResources)

  // pytorch and tf: the image of the Worker replicas (seed 000's --worker-image;
  // SubmitKind::Rules::worker_image).
  std::string worker_image;

  std::vector<std::string> command_args;  // positional, joined by spaces

  // Behaviour of the command itself.
  bool dry_run = false;
  std::string output = "yaml";  // for --dry-run: yaml | json
  std::string wait;             // "" | running | finished
  std::string timeout;          // for --wait
  std::string template_dir;

  // Flags of other submit commands, refused if given (SubmitKind::flags).
  std::deque<ForeignFlag> foreign_flags;

  // The options only the command's kinds have (kind_part.h: kinds/tfjob.h TFOptions,
  // kinds/torchrun.h TorchrunOptions, kinds/trainjob.h TrainJobOptions...).
  KindParts kind_data;
};

}  // namespace trainctl::submit
