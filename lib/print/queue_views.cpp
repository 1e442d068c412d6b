#include "print/queue_views.h"

#include <map>

#include "print/table.h"

namespace trainctl::print {

using nlohmann::ordered_json;

std::string resource_list_text(const nlohmann::json& resources) {
  if (!resources.is_object() || resources.empty()) return "-";
  std::map<std::string, std::string> sorted;
  for (const auto& [k, v] : resources.items()) sorted[k] = v.is_string() ? v.get<std::string>() : v.dump();
  std::string out;
  for (const auto& [k, v] : sorted) out += (out.empty() ? "" : ", ") + k + ": " + v;
  return out;
}

std::string volcano_queues_view(const std::vector<jobs::VolcanoQueue>& queues, const IOStreams& io) {
  Table t({"NAME", "STATE", "WEIGHT", "CAPABILITY", "ALLOCATED", "INQUEUE", "PENDING", "RUNNING"});
  for (const auto& q : queues)
    t.add_row({q.name, q.state.empty() ? "-" : q.state, std::to_string(q.weight), resource_list_text(q.capability),
               resource_list_text(q.allocated), std::to_string(q.inqueue), std::to_string(q.pending),
               std::to_string(q.running)});
  return t.render(io);
}

std::string cluster_queues_view(const std::vector<jobs::ClusterQueue>& queues, const IOStreams& io) {
  Table t({"NAME", "COHORT", "FLAVOR", "RESOURCE", "NOMINAL", "USED", "PENDING", "ADMITTED"});
  for (const auto& q : queues) {
    const std::string cohort = q.cohort.empty() ? "-" : q.cohort;
    const std::string pending = std::to_string(q.pending), admitted = std::to_string(q.admitted);
    if (q.quotas.empty()) t.add_row({q.name, cohort, "-", "-", "-", "-", pending, admitted});
    for (const auto& r : q.quotas) t.add_row({q.name, cohort, r.flavor, r.resource, r.nominal, r.used, pending, admitted});
  }
  return t.render(io);
}

std::string local_queues_view(const std::vector<jobs::LocalQueue>& queues, const IOStreams& io) {
  Table t({"NAMESPACE", "NAME", "CLUSTERQUEUE", "PENDING", "ADMITTED"});
  for (const auto& q : queues)
    t.add_row({q.namespace_, q.name, q.cluster_queue, std::to_string(q.pending), std::to_string(q.admitted)});
  return t.render(io);
}

std::string queues_view(const jobs::QueueOverview& o, const IOStreams& io) {
  std::string out;
  if (!o.volcano) {
    out += "Volcano is not installed (no scheduling.volcano.sh/v1beta1 queues)\n";
  } else {
    out += "Volcano queues:\n";
    out += o.volcano_queues.empty() ? "No resources found\n" : volcano_queues_view(o.volcano_queues, io);
  }
  out += "\n";
  if (!o.kueue) {
    out += "Kueue is not installed (no kueue.x-k8s.io/v1beta1 clusterqueues)\n";
    return out;
  }
  out += "Kueue ClusterQueues:\n";
  out += o.cluster_queues.empty() ? "No resources found\n" : cluster_queues_view(o.cluster_queues, io);
  out += "\nKueue LocalQueues:\n";
  out += o.local_queues.empty() ? "No resources found\n" : local_queues_view(o.local_queues, io);
  return out;
}

std::string pending_workloads_view(const std::vector<jobs::PendingWorkload>& w, const IOStreams& io) {
  if (w.empty()) return "No pending workloads\n";
  Table t({"POSITION", "NAMESPACE", "JOB", "WORKLOAD", "LOCALQUEUE", "LQ-POSITION", "PRIORITY"});
  for (const auto& p : w)
    t.add_row({std::to_string(p.position_in_cluster_queue), p.namespace_,
               p.owner_name.empty() ? "-" : p.owner_kind + "/" + p.owner_name, p.name, p.local_queue,
               std::to_string(p.position_in_local_queue), std::to_string(p.priority)});
  return t.render(io);
}

std::string job_queue_text(const jobs::JobQueue& q) {
  std::string out = q.name;
  if (q.kind == "kueue")
    out += " (Kueue LocalQueue" + (q.cluster_queue.empty() ? "" : ", ClusterQueue " + q.cluster_queue) + ")";
  else
    out += " (Volcano Queue)";
  if (!q.phase.empty()) out += ", " + q.phase;
  if (q.position) out += " at position " + std::to_string(*q.position);
  return out;
}

ordered_json queues_json(const jobs::QueueOverview& o) {
  ordered_json volcano = {{"installed", o.volcano}, {"queues", ordered_json::array()}};
  for (const auto& q : o.volcano_queues)
    volcano["queues"].push_back({{"name", q.name},
                                 {"state", q.state},
                                 {"weight", q.weight},
                                 {"parent", q.parent},
                                 {"capability", q.capability},
                                 {"allocated", q.allocated},
                                 {"inqueue", q.inqueue},
                                 {"pending", q.pending},
                                 {"running", q.running},
                                 {"unknown", q.unknown},
                                 {"completed", q.completed}});
  ordered_json kueue = {{"installed", o.kueue},
                        {"clusterQueues", ordered_json::array()},
                        {"localQueues", ordered_json::array()}};
  for (const auto& q : o.cluster_queues) {
    ordered_json quotas = ordered_json::array();
    for (const auto& r : q.quotas)
      quotas.push_back({{"flavor", r.flavor},
                        {"resource", r.resource},
                        {"nominal", r.nominal},
                        {"used", r.used},
                        {"reserved", r.reserved}});
    kueue["clusterQueues"].push_back({{"name", q.name},
                                      {"cohort", q.cohort},
                                      {"queueingStrategy", q.strategy},
                                      {"quotas", quotas},
                                      {"pending", q.pending},
                                      {"reserving", q.reserving},
                                      {"admitted", q.admitted}});
  }
  for (const auto& q : o.local_queues)
    kueue["localQueues"].push_back({{"namespace", q.namespace_},
                                    {"name", q.name},
                                    {"clusterQueue", q.cluster_queue},
                                    {"pending", q.pending},
                                    {"reserving", q.reserving},
                                    {"admitted", q.admitted}});
  return {{"volcano", volcano}, {"kueue", kueue}};
}

ordered_json pending_workloads_json(const std::vector<jobs::PendingWorkload>& w) {
  ordered_json out = ordered_json::array();
  for (const auto& p : w)
    out.push_back({{"namespace", p.namespace_},
                   {"name", p.name},
                   {"job", {{"kind", p.owner_kind}, {"name", p.owner_name}}},
                   {"localQueue", p.local_queue},
                   {"positionInClusterQueue", p.position_in_cluster_queue},
                   {"positionInLocalQueue", p.position_in_local_queue},
                   {"priority", p.priority}});
  return out;
}

}  // namespace trainctl::print
