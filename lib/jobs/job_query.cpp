#include "jobs/job_query.h"

#include <algorithm>
#include <set>

#include "core/errors.h"
#include "core/log.h"
#include "jobs/build_job.h"
#include "jobs/json_util.h"
#include "jobs/parallel_list.h"

namespace trainctl::jobs {

using nlohmann::json;

std::vector<const JobKind*> kinds_for_type(const std::string& type) {
  std::vector<const JobKind*> out;
  if (type.empty()) {
    for (const auto& k : all_kinds()) out.push_back(&k);
    return out;
  }
  const JobKind& k = kind_for_type(type);
  // --type pytorchjob covers both ways of running PyTorch.
  for (const auto& other : all_kinds())
    if (other.type == k.type) out.push_back(&other);
  return out;
}

namespace {

std::string with_selector(std::string path, const std::string& selector) {
  if (!selector.empty()) path += "?labelSelector=" + kube::url_encode(selector);
  return path;
}

std::string pods_path(const std::string& ns) {
  return ns.empty() ? "/api/v1/pods" : "/api/v1/namespaces/" + ns + "/pods";
}

size_t kind_order(const JobKind* k) {
  const auto& all = all_kinds();
  for (size_t i = 0; i < all.size(); ++i)
    if (&all[i] == k) return i;
  return all.size();
}

}  // namespace

std::vector<TrainingJob> list_jobs(kube::Client& client, const std::string& ns,
                                   const std::vector<const JobKind*>& kinds, TimePoint now) {
  std::vector<Read> reads;
  for (const auto* k : kinds)
    reads.push_back({with_selector(k->resource.collection_path(ns), k->list_selector), true});
  std::vector<std::string> pod_labels;
  for (const auto* k : kinds)
    if (std::find(pod_labels.begin(), pod_labels.end(), k->pod_job_label) == pod_labels.end())
      pod_labels.push_back(k->pod_job_label);
  for (const auto& l : pod_labels) reads.push_back({with_selector(pods_path(ns), l), true});

  auto results = read_all(client, reads);
  std::vector<json> pods;
  for (size_t i = kinds.size(); i < results.size(); ++i)
    for (auto& p : results[i].items) pods.push_back(std::move(p));

  std::vector<TrainingJob> jobs;
  for (size_t i = 0; i < kinds.size(); ++i) {
    const JobKind& kind = *kinds[i];
    if (results[i].not_found) {
      log::debug("{} is not served by this cluster; skipping it", kind.resource.display());
      continue;
    }
    auto grouped = group_pods(kind, pods);
    for (const auto& obj : results[i].items) {
      if (!labels_match(obj, kind.list_selector)) continue;
      const auto it = grouped.find({namespace_of(obj), name_of(obj)});
      jobs.push_back(build_job(kind, obj, it == grouped.end() ? PodRefs{} : it->second, now));
    }
  }
  std::stable_sort(jobs.begin(), jobs.end(), [](const TrainingJob& a, const TrainingJob& b) {
    if (a.created != b.created) return a.created > b.created;
    if (a.kind != b.kind) return kind_order(a.kind) < kind_order(b.kind);
    if (a.namespace_ != b.namespace_) return a.namespace_ < b.namespace_;
    return a.name < b.name;
  });
  return jobs;
}

std::string tensorboard_url(const std::vector<json>& services, const std::vector<json>& nodes) {
  for (const auto& svc : services) {
    const auto& ports = at_path(svc, {"spec", "ports"});
    if (!ports.is_array() || ports.empty()) continue;
    const auto& port = ports[0];
    if (str(at(svc, "spec"), "type") == "LoadBalancer") {
      const auto& ingress = at_path(svc, {"status", "loadBalancer", "ingress"});
      if (ingress.is_array() && !ingress.empty() && !str(ingress[0], "ip").empty())
        return "http://" + str(ingress[0], "ip") + ":" + std::to_string(at(port, "port").get<long long>());
    }
    const auto& node_port = at(port, "nodePort");
    if (!node_port.is_number()) continue;
    for (const auto& node : nodes) {
      bool ready = false;
      for (const auto& c : at_path(node, {"status", "conditions"}))
        if (str(c, "type") == "Ready" && str(c, "status") == "True") ready = true;
      if (!ready) continue;
      for (const auto& a : at_path(node, {"status", "addresses"}))
        if (str(a, "type") == "InternalIP")
          return "http://" + str(a, "address") + ":" + std::to_string(node_port.get<long long>());
    }
  }
  return "";
}

GetResult get_job(kube::Client& client, const GetOptions& o, TimePoint now) {
  std::vector<Read> reads;
  for (const auto* k : o.kinds) reads.push_back({k->resource.object_path(o.ns, o.name), false});
  for (const auto* k : o.kinds)
    reads.push_back({with_selector(pods_path(o.ns), k->pod_selector(o.name)), true});
  const size_t services_at = reads.size();
  if (o.tensorboard) {
    reads.push_back(
        {with_selector("/api/v1/namespaces/" + o.ns + "/services", "role=tensorboard,release=" + o.name),
         true});
    reads.push_back({"/api/v1/nodes", true});
  }
  const size_t events_at = reads.size();
  if (o.events) reads.push_back({"/api/v1/namespaces/" + o.ns + "/events", true});

  auto results = read_all(client, reads);
  std::vector<size_t> found;
  for (size_t i = 0; i < o.kinds.size(); ++i) {
    if (results[i].not_found) continue;
    // The operator-free kind shares batch/v1 Jobs with everything else: only its labels count.
    if (!labels_match(results[i].object, o.kinds[i]->list_selector)) continue;
    found.push_back(i);
  }
  if (found.empty()) throw NotFoundError("job " + o.name + " not found in namespace " + o.ns);
  if (found.size() > 1) {
    std::string kinds;
    for (size_t i : found) kinds += (kinds.empty() ? "" : ", ") + o.kinds[i]->type;
    throw UsageError("there is more than one training job named " + o.name + " (" + kinds +
                     "): choose one with -T/--type");
  }
  const size_t k = found.front();
  const JobKind& kind = *o.kinds[k];
  const auto& pod_items = results[o.kinds.size() + k].items;
  PodRefs pods;
  for (const auto& p : pod_items)
    if (pod_belongs_to(kind, p, o.ns, o.name)) pods.push_back(&p);
  GetResult r;
  r.job = build_job(kind, results[k].object, pods, now);
  if (o.tensorboard)
    r.job.tensorboard = tensorboard_url(results[services_at].items, results[services_at + 1].items);
  if (o.events) {
    std::set<std::string> names{o.name};
    for (const auto& i : r.job.instances) names.insert(i.name);
    for (auto& e : results[events_at].items)
      if (names.count(str(at(e, "involvedObject"), "name"))) r.events.push_back(std::move(e));
  }
  return r;
}

}  // namespace trainctl::jobs
