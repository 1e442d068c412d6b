// list -w and top job -r: the jobs of `list` kept current from one list and then watches of
// each kind's jobs and of their pods (kube/reflector.h). Each job is held as its summary and
// each pod as its PodSummary, so that a pod that goes away leaves its job, and a refresh
// costs the events since the last one.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "jobs/job_summary.h"
#include "jobs/kind.h"
#include "jobs/pod_summary.h"
#include "jobs/training_job.h"
#include "kube/reflector.h"

namespace trainctl::jobs {

class LiveJobs {
 public:
  // As list_jobs(): the jobs of `kinds` in `ns` ("" = all namespaces), with Instance rows
  // when `instances`.
  LiveJobs(std::string ns, std::vector<const JobKind*> kinds, bool instances);

  // One collection per kind (its jobs) and per pod job-name label (their pods).
  std::vector<kube::Collection> collections();
  // Every job as of the last event handled, newest first, as list_jobs() returns them.
  JobList snapshot(TimePoint now) const;

  // The jobs changed since the last call, each as it is now, or as it was last for one that
  // was deleted (then `deleted`).
  struct Change {
    TrainingJob job;
    bool deleted = false;
  };
  std::vector<Change> take_changes(TimePoint now);

 private:
  struct Entry {
    size_t kind = 0;
    std::optional<JobSummary> job;
    std::map<std::string, PodSummary> pods;  // by pod name
  };
  TrainingJob build(const Entry& e, TimePoint now) const;
  void put_job(size_t k, const nlohmann::json& object);
  void delete_job(size_t k, const nlohmann::json& object);
  void put_pod(const std::string& label, const nlohmann::json& object, bool deleted);

  std::string m_ns;
  std::vector<const JobKind*> m_kinds;
  bool m_instances;
  std::unordered_map<std::string, Entry> m_entries;  // by kind, namespace, job name
  std::set<std::string> m_changed;
  std::map<std::string, Entry> m_deleted;  // jobs deleted since the last take_changes, as they were
};

}  // namespace trainctl::jobs
