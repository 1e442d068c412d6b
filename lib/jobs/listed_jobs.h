// The jobs of a list, held from the first page read to the last row printed in a compact
// entry per job: a list of a whole cluster must hold every job until its last page (it
// prints them newest first), so what an entry costs is what the list costs.
//
// Job objects and pods are folded in as they stream in, in either order. An entry keeps
// what build_job needs and no more: strings in one StringStore (namespaces, priorities,
// reasons, tasks and node IPs interned, so each distinct value is stored once), times as 8
// bytes, the pods' tally (job_pods.h), and of the pods that may be the chief only the one
// choose_chief can pick for each task. Each job's TrainingJob is built only when asked for,
// one at a time, in sorted order, so a table can be printed from the entries without
// holding a row or a TrainingJob per job.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/string_store.h"
#include "jobs/job_pods.h"
#include "jobs/job_summary.h"
#include "jobs/kind.h"
#include "jobs/pod_summary.h"
#include "jobs/training_job.h"

namespace trainctl::jobs {

// Where a job goes in list's order: newest first, then kind (all_kinds order), namespace and
// name. (kind, namespace, name) is unique, so the order is total: no stable sort needed.
struct ListPlace {
  TimePoint created;
  const JobKind* kind;
  std::string_view namespace_;
  std::string_view name;
};
bool listed_before(const ListPlace& a, const ListPlace& b);

class ListedJobs {
 public:
  // `kinds`: the kinds listed (add_job and add_pod name one by its index); `instances`: also
  // keep every pod's Instance row and the job's uid (list -o json and yaml show them).
  // Jobs are built as of `now`.
  ListedJobs(std::vector<const JobKind*> kinds, bool instances, TimePoint now);

  // A job object of kinds[kind] (a selected one: JobSummary::selected).
  void add_job(size_t kind, JobSummary job);
  // A pod of the job named `job` of kinds[kind] in the pod's namespace.
  void add_pod(size_t kind, std::string_view job, PodSummary pod);
  // Whether the job has pods, and the GPUs it asks for when it has none, read from elsewhere
  // than its object (a TrainJob's runtime: trainjob_runtime_gpus.h).
  bool has_pods(size_t kind, std::string_view ns, std::string_view name);
  void set_spec_gpus(size_t kind, std::string_view ns, std::string_view name, long long gpus);
  // Forgets everything added (the lists are read again from the start).
  void clear();

  // Once everything is added: orders the jobs newest first, then by kind (all_kinds() order),
  // namespace and name, as sort_newest_first does. Pods of no listed job are left out.
  void sort_newest_first();
  // The jobs sorted, and whether any of them is elastic (list's WORKERS column).
  size_t size() const { return m_order.size(); }
  bool any_elastic() const { return m_any_elastic; }
  // Whether any of them reports progress (list -o wide's PROGRESS column).
  bool any_progress() const { return m_any_progress; }
  // The i-th job as build_job makes it; with instances, job() copies its Instance rows and
  // take() moves them out (a second take() of the job has none).
  TrainingJob job(size_t i) const;
  TrainingJob take(size_t i);
  // Sets the i-th job's TrainingJob::reason (list -o wide: from events, pending_query.h).
  void set_reason(size_t i, std::string reason);

 private:
  // A time that may be absent, in 8 bytes.
  class Time {
   public:
    Time() = default;
    explicit Time(const std::optional<TimePoint>& t) : m_rep(t ? t->time_since_epoch().count() : kNone) {}
    std::optional<TimePoint> get() const {
      if (m_rep == kNone) return std::nullopt;
      return TimePoint(TimePoint::duration(m_rep));
    }

   private:
    static constexpr TimePoint::rep kNone = std::numeric_limits<TimePoint::rep>::min();
    TimePoint::rep m_rep = kNone;
  };

  // A ChiefPod, its strings in the store.
  struct Chief {
    StrRef name, node_ip, priority_class, task;  // all but name interned
    Time created, latest_transition;
    std::uint32_t seq = 0;  // which of the job's pods it was (1 the first)
    std::uint16_t rank = 0;
    bool pending = false;
    bool left_pending = false;
  };
  // What `chief` holds: nothing; the job's only pod, which is no candidate; or the best
  // candidate of the first task seen.
  enum class ChiefHeld : std::uint8_t { None, Only, Candidate };

  struct Entry {
    StrRef name;
    StrRef namespace_;  // interned, as are the other StrRefs but chief.name
    Time created;
    Time start, completion, ended;  // StatusTimes
    long long spec_gpus = 0;
    StrRef spec_priority, chief_task, failed_reason;
    WorkerRange elastic;  // when has_elastic
    PodTally pods;
    StrRef pending_reason;
    Chief chief;
    // Candidates of other tasks than chief's: the best of each, while there are any.
    std::unique_ptr<std::vector<Chief>> more_chiefs;
    std::uint8_t kind = 0;
    JobStatus status = JobStatus::Pending;
    ChiefHeld chief_held = ChiefHeld::None;
    bool has_job = false;  // its object was read
    bool has_elastic = false;
  };
  // With instances only, one per entry.
  struct Details {
    std::string uid;
    std::vector<Instance> instances;
  };

  std::uint32_t entry(size_t kind, std::string_view ns, std::string_view name);
  void grow_index();
  size_t hash(const Entry& e) const;
  void fold_chief(Entry& e, const JobKind& kind, const PodSummary& pod);
  Chief compact(const ChiefPod& pod, std::uint32_t seq);
  ChiefPod expand(const Chief& chief) const;
  TrainingJob build(std::uint32_t index, std::vector<Instance> instances) const;

  std::vector<const JobKind*> m_kinds;
  bool m_instances;
  TimePoint m_now;
  StringStore m_strings;
  std::deque<Entry> m_entries;
  std::deque<Details> m_details;
  std::vector<std::uint32_t> m_index;  // open addressing: entry index + 1, 0 for a free slot
  std::vector<std::uint32_t> m_order;  // entries of jobs, sorted
  bool m_any_elastic = false;
  std::unordered_map<std::uint32_t, std::string> m_reasons;  // by entry
  // Few jobs report progress (TrainJobs with trainerStatus): kept beside the entries.
  std::unordered_map<std::uint32_t, TrainingProgress> m_progress;  // by entry
  bool m_any_progress = false;
};

}  // namespace trainctl::jobs
