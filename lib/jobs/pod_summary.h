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
#include "kube/page_stream.h"

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
// The same summary read straight from a list page as simdjson parsed it, without building the
// pod (pod_summary_read.cpp): what list's pod reads use.
PodSummary summarize_pod(const kube::PageItem& pod, bool containers = true);

// For the two readers above: the label keys some job kind reads from pods (sorted; a
// PodSummary's label index is the key's place here), whether the k-th is read from the
// annotation of that key where the label is absent, and the chief labels a kind reads from
// the pod where older releases set none (added once the labels are read).
const std::vector<std::string>& kept_pod_labels();
bool kept_pod_label_from_annotation(size_t k);
void add_chief_labels(PodSummary& pod);

// Every field of a pod that summarize_pod reads, for the list reads whose items only go
// through it (kube/field_set.h): a pod built with these summarizes as the whole pod does.
const kube::FieldSet& pod_summary_fields();

}  // namespace trainctl::jobs
