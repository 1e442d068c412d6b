// The pods of one job, folded in one at a time as they stream in. What list and top job show
// (counts, GPU sums, whether any pod is Pending, the few pods that may be the chief, in a
// compact form) takes memory that does not grow with the number of pods; the Instance rows
// are kept only when asked for (get, list -o json). A list of a whole cluster folds its pods
// the same way into an entry more compact still (listed_jobs.h): the PodTally and the
// chief candidates, its strings in a shared store.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "jobs/kind.h"
#include "jobs/pod_summary.h"
#include "jobs/time.h"
#include "jobs/training_job.h"

namespace trainctl::jobs {

// What choosing a job's chief, and its status, duration, NODE and priority, need of a pod.
struct ChiefPod {
  std::string name;
  std::string node_ip;         // status.hostIP
  std::string priority_class;  // spec.priorityClassName
  std::string task;            // the kind's pod_task_label (Volcano's task), "" when absent
  std::optional<TimePoint> created;
  std::optional<TimePoint> latest_transition;  // newest condition transition
  bool pending = false;                        // phase Pending
  bool left_pending = false;                   // has a phase and it is not Pending
  // Which chief rule the pod matches: 0 the kind's chief label and value, i the kind's
  // chief_fallbacks[i - 1]. A lower rank wins (choose_chief).
  size_t rank = 0;

  static ChiefPod of(const JobKind& kind, const PodSummary& pod);
};

// Which chief rule of the kind the pod matches (ChiefPod::rank); none when it may not be the
// chief.
std::optional<size_t> chief_rank(const JobKind& kind, const PodSummary& pod);

// Whether a pod's pending reason replaces the one its job holds: any reason replaces none or
// Unschedulable, so that another reason (an image pull) wins once seen.
inline bool takes_pending_reason(std::string_view held, std::string_view pod_reason) {
  return !pod_reason.empty() && (held.empty() || held == "Unschedulable");
}

// What a job's pods add up to.
struct PodTally {
  bool any_pending = false;
  size_t count = 0;
  size_t running = 0;           // pods in phase Running
  long long gpus = 0;           // GPUs of all pods
  long long gpus_held = 0;      // GPUs of pods that hold them (PodSummary::holds_gpus)
  long long owner_request = 0;  // the first requestGPUsOfJobOwner annotation > 0 seen, else 0

  void add(const PodSummary& pod);
  // Adds another tally, as if its pods were added one by one after these.
  void add(const PodTally& more);
};

struct JobPods : PodTally {
  explicit JobPods(bool keep_instances = true) : keep_instances(keep_instances) {}

  bool keep_instances;
  std::string pending_reason;        // of its pods (PodSummary::pending_reason): an image pull first
  std::vector<ChiefPod> candidates;  // pods of the kind's chief label and value or chief_fallbacks
  std::unique_ptr<ChiefPod> only;    // the pod while it is the job's only one
  std::vector<Instance> instances;   // every pod's row, when keep_instances

  void add(const JobKind& kind, PodSummary pod);
  // The same for a pod already reduced with its kind's rules: its tally (`one`, of one pod),
  // pending reason, ChiefPod::of and chief_rank, and its row (used when keep_instances).
  void add(const PodTally& one, std::string_view pod_pending_reason, ChiefPod chief, std::optional<size_t> rank,
           Instance* instance);
};

}  // namespace trainctl::jobs
