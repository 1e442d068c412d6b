#include "jobs/build_job.h"

#include <algorithm>
#include <cctype>
#include <string_view>

#include "jobs/gpu.h"
#include "jobs/job_status.h"
#include "jobs/json_util.h"
#include "jobs/pod_status.h"

namespace trainctl::jobs {

using nlohmann::json;

bool pod_belongs_to(const JobKind& kind, const json& pod, const std::string& ns,
                    const std::string& job_name) {
  return namespace_of(pod) == ns && label(pod, kind.pod_job_label) == job_name &&
         labels_match(pod, kind.pod_extra_selector);
}

std::map<std::pair<std::string, std::string>, PodRefs> group_pods(const JobKind& kind,
                                                                  const std::vector<json>& pods) {
  std::map<std::pair<std::string, std::string>, PodRefs> out;
  for (const auto& p : pods) {
    const std::string job = label(p, kind.pod_job_label);
    if (job.empty() || !labels_match(p, kind.pod_extra_selector)) continue;
    out[{namespace_of(p), job}].push_back(&p);
  }
  return out;
}

namespace {

TimePoint created_of(const json& obj) {
  return parse_time(str(at(obj, "metadata"), "creationTimestamp")).value_or(TimePoint{});
}

bool is_chief_pod(const JobKind& kind, const json& job, const json& pod) {
  if (label(pod, kind.chief_label) != kind.chief_value) return false;
  if (kind.trainer == Trainer::Volcano) {
    const auto& tasks = at(at(job, "spec"), "tasks");
    if (tasks.is_array() && !tasks.empty()) {
      const std::string first = str(tasks[0], "name");
      const std::string task = label(pod, "volcano.sh/task-spec");
      if (!first.empty() && !task.empty()) return task == first;
    }
  }
  return true;
}

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

const json* choose_chief(const JobKind& kind, const json& job, const PodRefs& pods) {
  const json* best = nullptr;
  auto pending = [](const json* p) { return str(at(*p, "status"), "phase") == "Pending"; };
  for (const auto* p : pods) {
    if (!is_chief_pod(kind, job, *p)) continue;
    if (!best) {
      best = p;
      continue;
    }
    if (pending(best) != pending(p)) {
      if (pending(best)) best = p;
    } else if (created_of(*p) > created_of(*best)) {
      best = p;
    }
  }
  if (!best && pods.size() == 1) best = pods.front();
  return best;
}

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

TrainingJob build_job(const JobKind& kind, const json& job, const PodRefs& pods, TimePoint now) {
  TrainingJob t;
  t.kind = &kind;
  t.name = name_of(job);
  t.namespace_ = namespace_of(job);
  t.uid = str(at(job, "metadata"), "uid");
  t.created = created_of(job);
  const json* chief = choose_chief(kind, job, pods);
  t.status = job_status(kind, job, chief, pods);
  t.duration = job_duration(kind, job, kind_status(kind, job, chief), chief, now);
  if (t.finished()) t.ended = t.created + t.duration;
  t.gpus_requested = requested_gpus(pods, spec_requested_gpus(kind, job));
  t.gpus_allocated = allocated_gpus(pods);
  if (chief) {
    t.chief_name = name_of(*chief);
    t.chief_node_ip = str(at(*chief, "status"), "hostIP");
    const std::string pc = str(at(*chief, "spec"), "priorityClassName");
    if (!pc.empty()) t.priority = pc;
  }
  if (t.priority == "N/A") {
    std::string pc = str(at_path(job, {"spec", "runPolicy", "schedulingPolicy"}), "priorityClass");
    if (pc.empty()) pc = str(at(job, "spec"), "priorityClassName");
    if (!pc.empty()) t.priority = pc;
  }
  for (const auto* p : pods) {
    Instance i;
    i.name = name_of(*p);
    i.status = pod_display_status(*p);
    i.phase = str(at(*p, "status"), "phase");
    i.node_name = str(at(*p, "spec"), "nodeName");
    i.node_ip = str(at(*p, "status"), "hostIP");
    i.is_chief = p == chief;
    i.gpus = pod_gpus(*p);
    i.created = parse_time(str(at(*p, "metadata"), "creationTimestamp"));
    i.restarts = pod_restarts(*p);
    for (const auto& c : at_path(*p, {"spec", "initContainers"})) i.init_containers.push_back(str(c, "name"));
    for (const auto& c : at_path(*p, {"spec", "containers"})) i.containers.push_back(str(c, "name"));
    t.instances.push_back(std::move(i));
  }
  std::stable_sort(t.instances.begin(), t.instances.end(), [](const Instance& a, const Instance& b) {
    if (a.is_chief != b.is_chief) return a.is_chief;
    return natural_less(a.name, b.name);
  });
  return t;
}

}  // namespace trainctl::jobs
