// list -w and top job -r: the jobs of `list` kept current from one list and then watches of
// each kind's jobs and of their pods (kube/reflector.h). Each job is held as its summary and
// each pod as a compact record of what its job's row needs (LivePod: its tally, pending
// reason and chief facts, strings interned), so that a pod that goes away leaves its job, a
// refresh costs the events since the last one, and 150,000 pods fit in a few tens of MB.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/string_store.h"
#include "jobs/job_pods.h"
#include "jobs/job_summary.h"
#include "jobs/kind.h"
#include "jobs/pod_summary.h"
#include "jobs/training_job.h"
#include "jobs/trainjob_runtime_gpus.h"
#include "kube/reflector.h"

namespace trainctl::jobs {

class LiveJobs {
 public:
  // As list_jobs(): the jobs of `kinds` in `ns` ("" = all namespaces), with Instance rows
  // when `instances`. A TrainJob that names no GPU shows its runtime's, as list_jobs() shows
  // them (trainjob_runtime_gpus.h), read with `runtimes` (none: the job's own spec only),
  // each runtime once for the view's life.
  LiveJobs(std::string ns, std::vector<const JobKind*> kinds, bool instances, kube::Client* runtimes = nullptr);

  // One collection per kind (its jobs) and per pod job-name label (their pods).
  std::vector<kube::Collection> collections();
  // Every job as of the last event handled, newest first, as list_jobs() returns them.
  // Reads first, in one round, the runtimes jobs named since the last read. The changes so
  // far are in it: take_changes() starts from here.
  JobList snapshot(TimePoint now);

  // The jobs changed since the last snapshot() or take_changes(), each as it is now, or as it
  // was last for one that was deleted (then `deleted`). Reads the runtimes first, as snapshot().
  struct Change {
    TrainingJob job;
    bool deleted = false;
  };
  std::vector<Change> take_changes(TimePoint now);

 private:
  // What build needs of a pod, its kind's rules applied when it was put (JobPods::add): 48
  // bytes a pod (times in seconds, as Kubernetes writes them; repeated strings as numbers).
  struct LivePod {
    static constexpr std::uint8_t kNoRank = 0xff;
    static constexpr std::uint32_t kNoTime = UINT32_MAX;
    StrRef name;                                                  // in m_names
    std::uint32_t node_ip = 0, priority_class = 0, task = 0, pending_reason = 0;  // m_strings.intern_id
    std::uint32_t created = kNoTime, latest_transition = kNoTime;  // seconds since the epoch
    std::int32_t gpus = 0, owner_request = 0;
    std::uint8_t rank = kNoRank;  // chief_rank, kNoRank for none
    bool running = false, pending = false, left_pending = false, holds_gpus = false;

    // Kubernetes writes times in whole seconds: metav1.Time's MarshalJSON formats time.RFC3339
    // (k8s.io/apimachinery pkg/apis/meta/v1/time.go), and conditions, creation and start times
    // are metav1.Time.
    static std::uint32_t seconds_of(const std::optional<TimePoint>& t);
    static std::optional<TimePoint> time_of(std::uint32_t seconds);
  };
  struct Entry {
    size_t kind = 0;
    std::optional<JobSummary> job;
    // Sorted by name: lists hand pods over in name order, so they are appended.
    std::vector<LivePod> pods;
    std::map<std::string, Instance> instances;  // by pod name, with m_instances only
  };
  // The pod named `name` in e.pods, or where it goes.
  std::vector<LivePod>::iterator find_pod(Entry& e, std::string_view name);
  void put_pod(Entry& e, const JobKind& kind, PodSummary pod);
  void erase_pod(Entry& e, std::string_view name);
  // Copies the names of the pods still held into a new store once most of m_names is dead.
  void compact_names();
  TrainingJob build(const Entry& e, TimePoint now) const;
  void put_job(size_t k, const nlohmann::json& object);
  void delete_job(size_t k, const nlohmann::json& object);
  void put_pod(const std::string& label, const nlohmann::json& object, bool deleted);
  void read_runtimes();

  std::string m_ns;
  std::vector<const JobKind*> m_kinds;
  bool m_instances;
  kube::Client* m_runtimes_from;
  LiveRuntimeGpus m_runtime_gpus;
  StringStore m_strings;  // values that repeat: node IPs, priority classes, tasks, reasons
  StringStore m_names;    // pod names
  size_t m_names_live = 0, m_names_dead = 0;  // bytes of the names held and of those dropped
  std::unordered_map<std::string, Entry> m_entries;  // by kind, namespace, job name
  std::set<std::string> m_changed;
  std::map<std::string, Entry> m_deleted;  // jobs deleted since the last take_changes, as they were
};

}  // namespace trainctl::jobs
