// One training job of any kind, as list/get/top show it, read from the job object and its
// pods (lib/jobs/build_job.h). Status and duration follow each kind's rules (status_rules.h).
#pragma once

#include <chrono>
#include <deque>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "jobs/job_status.h"
#include "jobs/kind.h"
#include "jobs/progress.h"
#include "jobs/time.h"

namespace trainctl::jobs {

struct Instance {
  std::string name;
  std::string status;  // kubectl's pod status: Running, Init:0/1, Completed...
  std::string phase;   // status.phase: Pending, Running, Succeeded, Failed, Unknown
  std::string node_name;
  std::string node_ip;  // status.hostIP
  bool is_chief = false;
  long long gpus = 0;     // nvidia.com/gpu + aliyun.com/gpu limits
  std::string gpu_index;  // device index(es) from the GPU-share annotation, "" when unknown
  std::optional<TimePoint> created;
  int restarts = 0;
  std::vector<std::string> init_containers;  // names, for logs -c defaults
  std::vector<std::string> containers;
};

struct TrainingJob {
  const JobKind* kind = nullptr;
  std::string name;
  std::string namespace_;
  std::string uid;
  JobStatus status = JobStatus::Pending;
  std::string priority = "N/A";  // priority class, or N/A
  TimePoint created{};
  std::optional<TimePoint> ended;  // created + duration, for SUCCEEDED and FAILED
  std::chrono::seconds duration{0};
  long long gpus_requested = 0;
  long long gpus_allocated = 0;
  std::string chief_name;           // chief instance, "" when it has no pod yet
  std::string chief_node_ip;        // its hostIP, "" when not scheduled
  std::vector<Instance> instances;  // chief first, then by name
  std::string tensorboard;          // URL, filled by get when a TensorBoard service exists
  std::string reason;               // why FAILED (its condition) or PENDING (its pods): list -o wide
  // An elastic job's range of workers and how many of its pods run now.
  struct Elastic {
    WorkerRange range;
    long long running = 0;
  };
  std::optional<Elastic> elastic;
  // The progress the job object reports (JobKind::progress: TrainJob's trainerStatus).
  std::optional<TrainingProgress> progress;

  const std::string& type() const { return kind->type; }             // pytorchjob
  const std::string& trainer() const { return kind->trainer_name; }  // PYTORCHJOB
  bool finished() const { return is_finished(status); }
  // GPU(Allocated) as list shows it: the count for PENDING/RUNNING/TERMINATING jobs, else "N/A".
  std::string allocated_display() const;
  // NODE as list shows it: the chief's host IP, or "N/A".
  std::string node_display() const;
  // An elastic job's workers as list and get show them: "2 (elastic 1-3)"; "" for other jobs.
  std::string workers_display() const;

  // The documented JSON shape (docs/json-output.md).
  nlohmann::ordered_json to_json() const;
};

// Jobs as list returns them. A deque allocates each job on its own (one job is bigger than
// a deque block), so a list of a whole cluster reuses the memory its streamed entries freed
// instead of asking for one block the size of all jobs.
using JobList = std::deque<TrainingJob>;

}  // namespace trainctl::jobs
