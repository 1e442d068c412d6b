#include "jobs/job_summary.h"

#include "jobs/json_util.h"

namespace trainctl::jobs {

using nlohmann::json;

long long spec_requested_gpus(const JobKind& kind, const json& job) {
  return kind.spec_gpus(at(job, "spec"));
}

JobSummary summarize_job(const JobKind& kind, const json& job) {
  JobSummary s;
  const auto& meta = at(job, "metadata");
  const auto& spec = at(job, "spec");
  s.name = str(meta, "name");
  s.namespace_ = str(meta, "namespace");
  s.uid = str(meta, "uid");
  s.created = parse_time(str(meta, "creationTimestamp"));
  s.selected = labels_match(job, kind.list_selector);
  s.status = object_status(kind, job);
  s.times = kind.status_rules->times(job);
  s.spec_gpus = spec_requested_gpus(kind, job);
  if (kind.elastic_workers) s.elastic = kind.elastic_workers(spec);
  if (kind.progress) s.progress = kind.progress(job);
  s.spec_priority = str(at_path(spec, {"runPolicy", "schedulingPolicy"}), "priorityClass");
  if (s.spec_priority.empty()) s.spec_priority = str(spec, "priorityClassName");
  s.chief_task = kind.chief_task(spec);
  if (const auto failure = object_failure(kind, job)) s.failed_reason = failure->reason;
  return s;
}

}  // namespace trainctl::jobs
