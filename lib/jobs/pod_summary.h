// A pod reduced, as soon as it is read, to what list/get/top need of it: the Instance row,
// the labels the job kinds select on, and the few fields status, duration and GPU
// accounting look at. Lists of thousands of pods are kept in this form only.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "jobs/time.h"
#include "jobs/training_job.h"
#include "kube/field_set.h"

namespace trainctl::jobs {

struct PodSummary {
  Instance instance;  // is_chief is decided later, with the job
  std::string namespace_;
  // Only the labels some job kind looks at (job name, operator, chief, task), each as the
  // index of its key in that short list and its value.
  std::vector<std::pair<unsigned char, std::string>> labels;
  std::string priority_class;                     // spec.priorityClassName
  std::optional<TimePoint> latest_transition;     // newest status.conditions[].lastTransitionTime
  long long owner_request = 0;                    // annotation requestGPUsOfJobOwner, 0 when absent
  bool started = false;                           // status.startTime is set
  std::string pending_reason;                     // pod_pending_reason (pending_reason.h)

  // The label's value, "" when absent.
  const std::string& label(std::string_view key) const;
  // Whether the labels satisfy "k=v,k2" (equality and existence terms, as labels_match).
  bool matches(std::string_view selector) const;
  bool pending() const { return instance.phase == "Pending"; }
  bool completed() const { return instance.phase == "Succeeded" || instance.phase == "Failed"; }
  // Started and not completed: the pod holds its GPUs (gpu.h).
  bool holds_gpus() const { return started && !completed(); }
};

// With `containers` false the container names (only get and logs use them) are left out.
PodSummary summarize_pod(const nlohmann::json& pod, bool containers = true);

// Every field of a pod that summarize_pod reads, for the list reads whose items only go
// through it (kube/field_set.h): a pod built with these summarizes as the whole pod does.
const kube::FieldSet& pod_summary_fields();

}  // namespace trainctl::jobs
