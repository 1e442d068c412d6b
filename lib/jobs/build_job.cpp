#include "jobs/build_job.h"

#include <algorithm>
#include <cctype>
#include <string_view>

#include "jobs/status_rules.h"

namespace trainctl::jobs {

using nlohmann::json;

std::string pod_job_of_kind(const JobKind& kind, const PodSummary& pod) {
  const std::string& job = pod.label(kind.pod_job_label);
  if (job.empty() || !pod.matches(kind.pod_extra_selector)) return "";
  return job;
}

bool pod_belongs_to(const JobKind& kind, const PodSummary& pod, const std::string& ns,
                    const std::string& job_name) {
  return pod.namespace_ == ns && pod_job_of_kind(kind, pod) == job_name;
}

namespace {

// Candidates carry the chief label already; where the kind names a chief task (Volcano: the
// first task), the chief is also of that task.
bool of_chief_task(const JobSummary& job, const ChiefPod& pod) {
  if (!job.chief_task.empty() && !pod.task.empty()) return pod.task == job.chief_task;
  return true;
}

TimePoint created_of(const ChiefPod& p) { return p.created.value_or(TimePoint{}); }

// "w-2" before "w-10": digit runs compare as numbers.
bool natural_less(const std::string& a, const std::string& b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) && std::isdigit(static_cast<unsigned char>(b[j]))) {
      size_t ie = i, je = j;
      while (ie < a.size() && std::isdigit(static_cast<unsigned char>(a[ie]))) ++ie;
      while (je < b.size() && std::isdigit(static_cast<unsigned char>(b[je]))) ++je;
      std::string_view da(a.data() + i, ie - i), db(b.data() + j, je - j);
      while (da.size() > 1 && da.front() == '0') da.remove_prefix(1);
      while (db.size() > 1 && db.front() == '0') db.remove_prefix(1);
      if (da.size() != db.size()) return da.size() < db.size();
      if (da != db) return da < db;
      i = ie;
      j = je;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

}  // namespace

bool beats_as_chief(const ChiefPod& pod, const ChiefPod& best) {
  if (best.rank != pod.rank) return pod.rank < best.rank;
  if (best.pending != pod.pending) return best.pending;
  return created_of(pod) > created_of(best);
}

const ChiefPod* choose_chief(const JobSummary& job, const JobPods& pods) {
  const ChiefPod* best = nullptr;
  for (const auto& p : pods.candidates) {
    if (!of_chief_task(job, p)) continue;
    if (!best || beats_as_chief(p, *best)) best = &p;
  }
  if (!best && pods.only) best = pods.only.get();
  return best;
}

TrainingJob build_job(const JobKind& kind, const JobSummary& job, JobPods pods, TimePoint now) {
  TrainingJob t;
  t.kind = &kind;
  t.name = job.name;
  t.namespace_ = job.namespace_;
  t.uid = job.uid;
  t.created = job.created.value_or(TimePoint{});
  const ChiefPod* chief = choose_chief(job, pods);
  t.status = status_with_pods(kind, job.status, chief, pods.any_pending);
  t.duration = job_duration(kind, job.times, job.status, job.created.value_or(now), chief, now);
  if (t.finished()) t.ended = t.created + t.duration;
  // Requested: the requestGPUsOfJobOwner annotation of any pod, else the pods' GPUs, else
  // (no pods yet) what the spec asks for. Allocated: GPUs of pods that hold them (gpu.h).
  t.gpus_requested = pods.owner_request > 0 ? pods.owner_request
                     : pods.count == 0      ? job.spec_gpus
                                            : pods.gpus;
  t.gpus_allocated = pods.gpus_held;
  if (t.status == JobStatus::Failed) t.reason = job.failed_reason;
  if (t.status == JobStatus::Pending || t.status == JobStatus::Queuing) t.reason = pods.pending_reason;
  t.progress = job.progress;
  if (job.elastic) t.elastic = TrainingJob::Elastic{*job.elastic, static_cast<long long>(pods.running)};
  if (chief) {
    t.chief_name = chief->name;
    t.chief_node_ip = chief->node_ip;
    if (!chief->priority_class.empty()) t.priority = chief->priority_class;
  }
  if (t.priority == "N/A" && !job.spec_priority.empty()) t.priority = job.spec_priority;
  t.instances = std::move(pods.instances);
  // Pod names are unique in the job's namespace: the chief's row is the one with its name.
  for (auto& i : t.instances) i.is_chief = chief && i.name == t.chief_name;
  std::stable_sort(t.instances.begin(), t.instances.end(), [](const Instance& a, const Instance& b) {
    if (a.is_chief != b.is_chief) return a.is_chief;
    return natural_less(a.name, b.name);
  });
  return t;
}

TrainingJob build_job(const JobKind& kind, const json& job, const PodRefs& pods, TimePoint now) {
  JobPods folded;
  for (const auto* p : pods) folded.add(kind, summarize_pod(*p));
  return build_job(kind, summarize_job(kind, job), std::move(folded), now);
}

}  // namespace trainctl::jobs
