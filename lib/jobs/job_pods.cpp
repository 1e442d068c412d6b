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

void JobPods::add(const JobKind& kind, PodSummary pod) {
  PodTally::add(pod);
  if (takes_pending_reason(pending_reason, pod.pending_reason)) pending_reason = pod.pending_reason;
  const std::optional<size_t> rank = chief_rank(kind, pod);
  const bool candidate = rank.has_value();
  if (candidate) {
    candidates.push_back(ChiefPod::of(kind, pod));
    candidates.back().rank = *rank;
  }
  if (count == 1)
    only = std::make_unique<ChiefPod>(candidate ? candidates.back() : ChiefPod::of(kind, pod));
  else
    only.reset();
  if (keep_instances) instances.push_back(std::move(pod.instance));
}

}  // namespace trainctl::jobs
