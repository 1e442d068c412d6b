// A validated, normalised submit: every flag checked and parsed before anything is rendered
// or sent. make_plan() throws UsageError with one clear line for the first bad input.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "jobs/kind.h"
#include "submit/config_files.h"
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

class SubmitKind;

struct Plan {
  const SubmitKind* submit_kind = nullptr;  // how this kind is planned and rendered (submit_kind.h)
  const jobs::JobKind* kind = nullptr;      // = &submit_kind->job
  std::string template_kind;                // template directory (SubmitKind::Rules::template_dir)
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
  std::vector<KeyValue> annotations;  // the user's, then requestGPUsOfJobOwner and kube-queue's
  std::vector<KeyValue> labels;
  nlohmann::json tolerations = nlohmann::json::array();
  std::vector<std::string> image_pull_secrets;
  std::string image_pull_policy;  // Always unless --image-pull-policy
  std::vector<KeyValue> devices;  // extended resources per pod (--device, --rdma)
  bool gpu_share = false;         // ACK GPU sharing (aliyun.com/gpu-mem, aliyun.com/gpu-count)
  std::vector<ConfigDir> config_dirs;  // --config-file: a ConfigMap per container directory
  bool rdma = false;              // also the IPC_LOCK capability
  bool host_network = false;      // --hostNetwork
  std::string service_account;    // serviceAccountName of every pod; "" = the namespace's default
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
  bool logdir_on_data = false;  // logdir lies under a --data mount
  bool logdir_remote = false;   // oss://, hdfs://, s3://...: TensorBoard reads it itself
  // Else the logs go to a hostPath on the chief's node, where TensorBoard is pinned (pod
  // affinity). Selecting the chief of an operator-free job by its completion-index label needs
  // Kubernetes 1.28; before it, TensorBoard follows any pod of the job.
  bool pod_index_label = true;

  std::optional<int> retry;  // backoffLimit / maxRetry; unset: the controller's default
  std::optional<std::int64_t> active_deadline_seconds;
  std::optional<std::int64_t> ttl_seconds_after_finished;
  std::string clean_pod_policy;
  std::string priority;
  std::string shm_size;  // empty: no /dev/shm volume
  std::string scheduler;

  bool scheduling_policy = false;  // runPolicy.schedulingPolicy wanted
  bool gang = false;               // also the coscheduling plugin's pod-group labels (Arena's --gang)
  int min_available = 0;
  bool min_available_given = false;  // --min-available, else the kind's default
  std::string queue;
  // --kueue-queue: the LocalQueue named by the label kueue.x-k8s.io/queue-name on the job
  // object (Kueue's webhook suspends the job; its Workload waits for quota in that queue).
  std::string kueue_queue;
  std::vector<KeyValue> min_resources;
  std::optional<std::int64_t> schedule_timeout_seconds;

  // The resource --gpus requests on each pod (submit mpi --gputopology: ACK's aliyun.com/gpu).
  std::string gpu_resource = "nvidia.com/gpu";
  std::string worker_image;  // PyTorchJob and TFJob Worker replicas; "" = image

  // How many pods the job runs (for --wait).
  int expected_pods = 0;

  // What only the kind plans (kind_part.h: kinds/tfjob.cpp's replica types, kinds/torchrun.h's
  // TorchrunPlan and ElasticPlan, kinds/trainjob.h's TrainJobPlan).
  KindParts kind_data;
};

// config_dirs: the --config-file files, read by the command (read_config_files).
Plan make_plan(const SubmitOptions& options, const std::string& namespace_, std::vector<ConfigDir> config_dirs);

// The gang size when --min-available is not given (SubmitKind::default_min_available).
int default_min_available(const Plan& plan);

// The parts of make_plan, by concern, in the order it calls them.
// plan_checks.cpp: flags on their own (ranges, formats, flags of another command).
void check_flags(const SubmitOptions& options, const SubmitKind& kind, const std::string& namespace_);
void check_quantity(const std::string& flag, const std::string& value);
// plan_pod.cpp: image, command, resources, env, labels, annotations, tolerations, devices.
void plan_pod(const SubmitOptions& options, Plan& plan);
// K=V items of a flag; keys (and values) checked as label keys (values) when asked; a
// repeated key keeps its first position and its last value.
std::vector<KeyValue> key_values(const std::string& flag, const std::vector<std::string>& items, bool label_key,
                                 bool label_value);
std::vector<KeyValue> device_resources(const SubmitOptions& options);
// Refuses a label of `flag` that gives one of trainctl's own labels (standard_labels_for_pods:
// app, release, createdBy, app.kubernetes.io/managed-by, the kind's) another value.
void check_owned_labels(const std::string& flag, const std::vector<KeyValue>& labels, const Plan& plan);
// plan_volumes.cpp: --data, --data-dir, --config-file, code sync, TensorBoard.
void plan_volumes(const SubmitOptions& options, std::vector<ConfigDir> config_dirs, Plan& plan);
// plan_scheduling.cpp: run policy, shared memory, gang and queue (SubmitKind::plan_gang:
// plan_worker_gang, or the kind's own), MPI launcher and slots.
void plan_scheduling(const SubmitOptions& options, Plan& plan);
void plan_worker_gang(const SubmitOptions& options, Plan& plan);
// Arena's implicit annotations: requestGPUsOfJobOwner (workers x GPUs) and, for --queue,
// kube-queue's scheduling.x-k8s.io/suspend. A key the user gave keeps the user's value.
void add_implicit_annotations(const SubmitOptions& options, Plan& plan);

}  // namespace trainctl::submit
