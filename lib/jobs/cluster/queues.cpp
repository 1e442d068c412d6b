// Volcano and Kueue queues (see queues.h).
#include "jobs/cluster/queues.h"

#include <map>

#include "core/errors.h"
#include "jobs/training_job.h"
#include "kube/json_util.h"
#include "kube/list_reads.h"
#include "kube/queue_resources.h"
#include "object/owner.h"

namespace trainctl::jobs {

using nlohmann::json;

namespace {

std::int64_t int_of(const json& obj, const char* key) {
  if (!obj.is_object() || !obj.contains(key)) return 0;
  const json& v = obj[key];
  return v.is_number_integer() ? v.get<std::int64_t>() : 0;
}

const json& spec_of(const json& o) { return kube::at(o, "spec"); }
const json& status_of(const json& o) { return kube::at(o, "status"); }

VolcanoQueue volcano_queue(const json& q) {
  VolcanoQueue v;
  v.name = kube::name_of(q);
  v.state = kube::str(status_of(q), "state");
  v.parent = kube::str(spec_of(q), "parent");
  v.weight = int_of(spec_of(q), "weight");
  if (spec_of(q).contains("capability") && spec_of(q)["capability"].is_object()) v.capability = spec_of(q)["capability"];
  if (status_of(q).contains("allocated") && status_of(q)["allocated"].is_object())
    v.allocated = status_of(q)["allocated"];
  return v;
}

// "resource -> total" of one flavor list (flavorsUsage, flavorsReservation; LocalQueue v1beta1
// flavorUsage), keyed flavor/resource.
std::map<std::string, std::string> totals(const json& flavors) {
  std::map<std::string, std::string> out;
  if (!flavors.is_array()) return out;
  for (const auto& f : flavors)
    for (const auto& r : kube::at(f, "resources").is_array() ? f["resources"] : json::array())
      out[kube::str(f, "name") + "/" + kube::str(r, "name")] =
          r.contains("total") && r["total"].is_string() ? r["total"].get<std::string>() : "0";
  return out;
}

std::string quantity(const json& q) {
  if (q.is_string()) return q.get<std::string>();
  if (q.is_number()) return q.dump();
  return "0";
}

ClusterQueue cluster_queue(const json& cq) {
  ClusterQueue c;
  c.name = kube::name_of(cq);
  const json& spec = spec_of(cq);
  c.cohort = kube::str(spec, "cohort");  // v1beta1; v1beta2 renamed it cohortName
  if (c.cohort.empty()) c.cohort = kube::str(spec, "cohortName");
  c.strategy = kube::str(spec, "queueingStrategy");
  if (c.strategy.empty()) c.strategy = "BestEffortFIFO";
  const json& st = status_of(cq);
  const auto used = totals(kube::at(st, "flavorsUsage"));
  const auto reserved = totals(kube::at(st, "flavorsReservation"));
  for (const auto& rg : kube::at(spec, "resourceGroups").is_array() ? spec["resourceGroups"] : json::array())
    for (const auto& f : kube::at(rg, "flavors").is_array() ? rg["flavors"] : json::array())
      for (const auto& r : kube::at(f, "resources").is_array() ? f["resources"] : json::array()) {
        const std::string key = kube::str(f, "name") + "/" + kube::str(r, "name");
        c.quotas.push_back({kube::str(f, "name"), kube::str(r, "name"), quantity(kube::at(r, "nominalQuota")),
                            used.count(key) ? used.at(key) : "0", reserved.count(key) ? reserved.at(key) : "0"});
      }
  c.pending = int_of(st, "pendingWorkloads");
  c.reserving = int_of(st, "reservingWorkloads");
  c.admitted = int_of(st, "admittedWorkloads");
  return c;
}

LocalQueue local_queue(const json& lq) {
  const json& st = status_of(lq);
  return {kube::namespace_of(lq),       kube::name_of(lq),           kube::str(spec_of(lq), "clusterQueue"),
          int_of(st, "pendingWorkloads"), int_of(st, "reservingWorkloads"), int_of(st, "admittedWorkloads")};
}

// volcano pkg/cli/podgroup PodGroupStatistics.StatPodGroupCountsForQueue.
void count_pod_group(VolcanoQueue& q, const std::string& phase) {
  if (phase == "Pending") ++q.pending;
  else if (phase == "Running") ++q.running;
  else if (phase == "Unknown") ++q.unknown;
  else if (phase == "Inqueue") ++q.inqueue;
  else if (phase == "Completed") ++q.completed;
}

std::string workload_phase(const json& wl) {
  if (kube::condition_true(wl, "Finished")) return "Finished";
  if (kube::condition_true(wl, "Admitted")) return "Admitted";
  if (kube::condition_true(wl, "QuotaReserved")) return "QuotaReserved";
  return "Pending";
}

}  // namespace

QueueOverview read_queues(kube::Client& client, const std::string& ns) {
  const auto results = kube::read_all(client, {{kube::volcano_queues().collection_path(), true},
                                               {kube::pod_groups().collection_path(), true},
                                               {kube::kueue_cluster_queues().collection_path(), true},
                                               {kube::kueue_local_queues().collection_path(ns), true}});
  QueueOverview o;
  o.volcano = !results[0].not_found;
  o.kueue = !results[2].not_found;
  std::map<std::string, size_t> by_name;
  for (const auto& q : results[0].items) {
    by_name[kube::name_of(q)] = o.volcano_queues.size();
    o.volcano_queues.push_back(volcano_queue(q));
  }
  for (const auto& pg : results[1].items) {
    auto it = by_name.find(kube::str(spec_of(pg), "queue"));
    if (it != by_name.end()) count_pod_group(o.volcano_queues[it->second], kube::str(status_of(pg), "phase"));
  }
  for (const auto& cq : results[2].items) o.cluster_queues.push_back(cluster_queue(cq));
  for (const auto& lq : results[3].items) o.local_queues.push_back(local_queue(lq));
  return o;
}

std::vector<PendingWorkload> parse_pending_workloads(const json& summary) {
  std::vector<PendingWorkload> out;
  for (const auto& w : kube::at(summary, "items").is_array() ? summary["items"] : json::array()) {
    PendingWorkload p{kube::namespace_of(w),
                      kube::name_of(w),
                      kube::str(w, "localQueueName"),
                      int_of(w, "priority"),
                      int_of(w, "positionInClusterQueue"),
                      int_of(w, "positionInLocalQueue"),
                      "",
                      ""};
    const json& refs = kube::at(kube::at(w, "metadata"), "ownerReferences");
    if (refs.is_array() && !refs.empty()) {
      p.owner_kind = kube::str(refs[0], "kind");
      p.owner_name = kube::str(refs[0], "name");
    }
    out.push_back(std::move(p));
  }
  return out;
}

std::string discover_visibility_version(kube::Client& client) {
  try {
    return kube::kueue_visibility_version(client.get_json(kube::api_group_path(kube::kKueueVisibilityGroup)));
  } catch (const ApiError& e) {
    if (e.is_not_found()) return "";
    throw;
  }
}

std::vector<PendingWorkload> read_pending_workloads(kube::Client& client, const std::string& version,
                                                    const std::string& cluster_queue) {
  if (version.empty())
    throw NotFoundError(std::string("Kueue's visibility API (") + kube::kKueueVisibilityGroup +
                        " v1beta2 or v1beta1) is not served on this cluster");
  const auto r = kube::read_all(client, {{kube::cluster_queue_pending_path(version, cluster_queue), false}});
  if (r[0].not_found) throw NotFoundError("ClusterQueue " + cluster_queue + " not found");
  return parse_pending_workloads(r[0].object);
}

nlohmann::ordered_json JobQueue::to_json() const {
  nlohmann::ordered_json j;
  j["name"] = name;
  j["kind"] = kind;
  j["position"] = position ? nlohmann::ordered_json(*position) : nlohmann::ordered_json();
  j["clusterQueue"] = cluster_queue.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(cluster_queue);
  j["phase"] = phase;
  return j;
}

std::optional<JobQueue> job_queue_of(const std::string& job_name, const std::string& job_uid,
                                     const std::vector<json>& workloads,
                                     const std::vector<json>& pod_groups) {
  // Lists arrive without ownerReferences (kube/page_stream.h): Kueue labels a job's Workload
  // with the job's uid (constants JobUIDLabel).
  for (const auto& wl : workloads) {
    if (kube::label(wl, "kueue.x-k8s.io/job-uid") != job_uid && !object::has_owner(wl, job_uid)) continue;
    JobQueue q{"kueue", kube::str(spec_of(wl), "queueName"), "", workload_phase(wl), std::nullopt};
    q.cluster_queue = kube::str(kube::at(status_of(wl), "admission"), "clusterQueue");
    return q;
  }
  // A Volcano Job's PodGroup is NAME-UID (job_controller_actions.go); the training-operator's
  // and mpi-operator's is NAME.
  for (const auto& pg : pod_groups) {
    const std::string pg_name = kube::name_of(pg);
    if (pg_name != job_name + "-" + job_uid && pg_name != job_name && !object::has_owner(pg, job_uid)) continue;
    std::string queue = kube::str(spec_of(pg), "queue");
    return JobQueue{"volcano", queue.empty() ? "default" : queue, "", kube::str(status_of(pg), "phase"),
                    std::nullopt};
  }
  return std::nullopt;
}

std::optional<JobQueue> read_job_queue(kube::Client& client, const TrainingJob& job) {
  const auto r = kube::read_all(client, {{kube::kueue_workloads().collection_path(job.namespace_), true},
                                         {kube::pod_groups().collection_path(job.namespace_), true}});
  auto q = job_queue_of(job.name, job.uid, r[0].items, r[1].items);
  if (q) read_queue_position(client, job, *q);
  return q;
}

void read_queue_position(kube::Client& client, const TrainingJob& job, JobQueue& q) {
  if (q.kind != "kueue" || q.phase != "Pending") return;
  // Its position: the LocalQueue's pending workloads name their ClusterQueue position.
  const std::string version = discover_visibility_version(client);
  std::vector<kube::Read> reads = {{kube::kueue_local_queues().object_path(job.namespace_, q.name), false}};
  if (!version.empty())
    reads.push_back({kube::local_queue_pending_path(version, job.namespace_, q.name), false});
  const auto p = kube::read_all(client, reads);
  if (!p[0].not_found) q.cluster_queue = kube::str(spec_of(p[0].object), "clusterQueue");
  if (p.size() < 2 || p[1].not_found) return;
  for (const auto& w : parse_pending_workloads(p[1].object))
    if (w.owner_name == job.name && w.namespace_ == job.namespace_ && w.owner_kind == job.kind->resource.kind) q.position = w.position_in_cluster_queue;
}

}  // namespace trainctl::jobs
