#include "jobs/job_pods.h"

#include <optional>

namespace trainctl::jobs {

std::optional<size_t> chief_rank(const JobKind& kind, const PodSummary& pod) {
  if (pod.label(kind.chief_label) == kind.chief_value) return 0;
  for (size_t i = 0; i < kind.chief_fallbacks.size(); ++i)
    if (pod.matches(kind.chief_fallbacks[i])) return i + 1;
  return std::nullopt;
}

ChiefPod ChiefPod::of(const JobKind& kind, const PodSummary& pod) {
  ChiefPod c;
  c.name = pod.instance.name;
  c.node_ip = pod.instance.node_ip;
  c.priority_class = pod.priority_class;
  c.task = pod.label(kind.pod_task_label);
  c.created = pod.instance.created;
  c.latest_transition = pod.latest_transition;
  c.pending = pod.pending();
  c.left_pending = !pod.instance.phase.empty() && !pod.pending();
  return c;
}

void PodTally::add(const PodSummary& pod) {
  ++count;
  if (pod.instance.phase == "Running") ++running;
  any_pending = any_pending || pod.pending();
  gpus += pod.instance.gpus;
  if (pod.holds_gpus()) gpus_held += pod.instance.gpus;
  if (owner_request == 0 && pod.owner_request > 0) owner_request = pod.owner_request;
}

void PodTally::add(const PodTally& more) {
  count += more.count;
  running += more.running;
  any_pending = any_pending || more.any_pending;
  gpus += more.gpus;
  gpus_held += more.gpus_held;
  if (owner_request == 0 && more.owner_request > 0) owner_request = more.owner_request;
}

void JobPods::add(const JobKind& kind, PodSummary pod) {
  PodTally one;
  one.add(pod);
  add(one, pod.pending_reason, ChiefPod::of(kind, pod), chief_rank(kind, pod), &pod.instance);
}

void JobPods::add(const PodTally& one, std::string_view pod_pending_reason, ChiefPod chief,
                  std::optional<size_t> rank, Instance* instance) {
  PodTally::add(one);
  if (takes_pending_reason(pending_reason, pod_pending_reason)) pending_reason = pod_pending_reason;
  if (rank) {
    chief.rank = *rank;
    candidates.push_back(chief);
  }
  if (count == 1)
    only = std::make_unique<ChiefPod>(std::move(chief));
  else
    only.reset();
  if (keep_instances && instance) instances.push_back(std::move(*instance));
}

}  // namespace trainctl::jobs
