// A validated, normalised submit: every flag checked and parsed before anything is rendered
// or sent. make_plan() throws UsageError with one clear line for the first bad input.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "submit/config_files.h"
#include "jobs/kind.h"
#include "submit/options.h"

namespace trainctl::submit {

struct KeyValue {
  std::string key;
  std::string value;
};

struct DataMount {  // --data PVC:/path
  std::string pvc;
  std::string path;
};

struct HostMount {  // --data-dir HOST[:/path]
  std::string host;
  std::string path;
};

struct Task {  // one Volcano task
  std::string name;
  int replicas = 1;
  std::string image;
  std::string command;  // empty: the image's entrypoint
};

struct Plan {
  const jobs::JobKind* kind = nullptr;
  std::string template_kind;  // template directory: pytorch, pytorch-none, mpi, volcano
  std::string name;
  std::string namespace_;

  std::string image;
  int gpus = 0;
  int workers = 1;
  std::string cpu;
  std::string memory;
  std::string working_dir;
  std::string shell;
  std::string command;  // empty: the image's entrypoint
  std::vector<KeyValue> envs;
  std::vector<KeyValue> selectors;
  std::vector<KeyValue> annotations;
  std::vector<KeyValue> labels;
  nlohmann::json tolerations = nlohmann::json::array();
  std::vector<std::string> image_pull_secrets;
  std::string image_pull_policy;  // "" = Kubernetes' default
  std::vector<KeyValue> devices;  // extended resources per pod (--device, --rdma)
  std::vector<ConfigDir> config_dirs;  // --config-file: a ConfigMap per container directory
  bool rdma = false;              // also the IPC_LOCK capability
  bool host_network = false;      // --hostNetwork or --gputopology
  bool host_ipc = false;
  bool host_pid = false;
  std::vector<DataMount> data;
  std::vector<HostMount> data_dirs;

  std::string sync_mode;  // "" | git | rsync
  std::string sync_source;
  std::string sync_image;
  std::string sync_repo;  // git: repository name, the directory under WORKING_DIR/code

  bool tensorboard = false;
  std::string logdir;
  std::string tensorboard_image;
  bool logdir_on_data = false;  // logdir lies under a --data mount (else a hostPath is used)

  int retry = 0;
  std::optional<std::int64_t> active_deadline_seconds;
  std::optional<std::int64_t> ttl_seconds_after_finished;
  std::string clean_pod_policy;
  std::string priority;
  std::string shm_size;  // empty: no /dev/shm volume
  std::string scheduler;

  bool scheduling_policy = false;  // runPolicy.schedulingPolicy wanted
  int min_available = 0;
  std::string queue;
  std::vector<KeyValue> min_resources;
  std::optional<std::int64_t> schedule_timeout_seconds;

  bool gputopology = false;
  int slots_per_worker = 1;
  std::string nproc_per_node;
  std::string worker_image;  // PyTorchJob Worker replicas; "" = image
  int master_port = 23456;

  std::vector<Task> tasks;  // volcano
  int task_port = 0;

  // How many pods the job runs (for --wait).
  int expected_pods = 0;
};

Plan make_plan(const SubmitOptions& options, const std::string& namespace_);

}  // namespace trainctl::submit
