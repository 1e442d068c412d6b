#include "jobs/job_summary.h"

#include "jobs/gpu.h"
#include "jobs/json_util.h"

namespace trainctl::jobs {

using nlohmann::json;

namespace {

long long replica_map_gpus(const json& specs) {
  long long total = 0;
  if (!specs.is_object()) return 0;
  for (const auto& [role, spec] : specs.items()) {
    const auto& r = at(spec, "replicas");
    long long replicas = r.is_number() ? r.get<long long>() : 1;
    total += replicas * spec_gpus(at_path(spec, {"template", "spec"}));
  }
  return total;
}

}  // namespace

long long spec_requested_gpus(const JobKind& kind, const json& job) {
  const auto& spec = at(job, "spec");
  switch (kind.trainer) {
    case Trainer::PyTorch:
      return replica_map_gpus(at(spec, "pytorchReplicaSpecs"));
    case Trainer::MPI:
      return replica_map_gpus(at(spec, "mpiReplicaSpecs"));
    case Trainer::Volcano: {
      long long total = 0;
      for (const auto& t : at(spec, "tasks")) {
        const auto& r = at(t, "replicas");
        total += (r.is_number() ? r.get<long long>() : 1) * spec_gpus(at_path(t, {"template", "spec"}));
      }
      return total;
    }
    case Trainer::PyTorchNoOperator: {
      const auto& c = at(spec, "completions");
      const auto& p = at(spec, "parallelism");
      long long n = c.is_number() ? c.get<long long>() : (p.is_number() ? p.get<long long>() : 1);
      return n * spec_gpus(at_path(spec, {"template", "spec"}));
    }
  }
  return 0;
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
  s.times = status_rules(kind.trainer).times(job);
  s.spec_gpus = spec_requested_gpus(kind, job);
  s.spec_priority = str(at_path(spec, {"runPolicy", "schedulingPolicy"}), "priorityClass");
  if (s.spec_priority.empty()) s.spec_priority = str(spec, "priorityClassName");
  const auto& tasks = at(spec, "tasks");
  if (tasks.is_array() && !tasks.empty()) s.first_task = str(tasks[0], "name");
  return s;
}

}  // namespace trainctl::jobs
