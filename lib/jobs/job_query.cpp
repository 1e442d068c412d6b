#include "jobs/job_query.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "core/errors.h"
#include "core/log.h"
#include "jobs/build_job.h"
#include "jobs/json_util.h"
#include "jobs/parallel_list.h"
#include "jobs/pod_summary.h"

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
  std::vector<StreamRead> reads;
  std::vector<std::vector<JobSummary>> found(kinds.size());
  for (size_t k = 0; k < kinds.size(); ++k) {
    const JobKind& kind = *kinds[k];
    auto* out = &found[k];
    reads.push_back({with_selector(kind.resource.collection_path(ns), kind.list_selector), true, 0,
                     [out, &kind](json& item) {
                       JobSummary s = summarize_job(kind, item);
                       if (s.selected) out->push_back(std::move(s));
                     }});
  }
  // Pods by (kind, namespace, job name), reduced as they arrive.
  std::map<std::tuple<size_t, std::string, std::string>, std::vector<PodSummary>> pods;
  std::vector<std::string> pod_labels;
  for (const auto* k : kinds)
    if (std::find(pod_labels.begin(), pod_labels.end(), k->pod_job_label) == pod_labels.end())
      pod_labels.push_back(k->pod_job_label);
  for (const auto& l : pod_labels) {
    reads.push_back({with_selector(pods_path(ns), l), true, 0, [&pods, &kinds, l](json& item) {
                       PodSummary pod = summarize_pod(item, false);
                       std::vector<size_t> owners;
                       for (size_t k = 0; k < kinds.size(); ++k)
                         if (kinds[k]->pod_job_label == l && !pod_job_of_kind(*kinds[k], pod).empty())
                           owners.push_back(k);
                       for (size_t n = 0; n < owners.size(); ++n) {
                         auto& slot = pods[{owners[n], pod.namespace_, pod_job_of_kind(*kinds[owners[n]], pod)}];
                         if (n + 1 == owners.size())
                           slot.push_back(std::move(pod));
                         else
                           slot.push_back(pod);
                       }
                     }});
  }
  const auto missing = stream_all(client, reads);

  std::vector<TrainingJob> jobs;
  for (size_t k = 0; k < kinds.size(); ++k) {
    const JobKind& kind = *kinds[k];
    if (missing[k]) {
      log::debug("{} is not served by this cluster; skipping it", kind.resource.display());
      continue;
    }
    for (const auto& j : found[k]) {
      std::vector<PodSummary> own;
      if (auto it = pods.find({k, j.namespace_, j.name}); it != pods.end()) {
        own = std::move(it->second);
        pods.erase(it);
      }
      jobs.push_back(build_job(kind, j, std::move(own), now));
    }
    std::vector<JobSummary>().swap(found[k]);
  }
  std::stable_sort(jobs.begin(), jobs.end(), [](const TrainingJob& a, const TrainingJob& b) {
    if (a.created != b.created) return a.created > b.created;
    if (a.kind != b.kind) return kind_order(a.kind) < kind_order(b.kind);
    if (a.namespace_ != b.namespace_) return a.namespace_ < b.namespace_;
    return a.name < b.name;
  });
  return jobs;
}

std::string tensorboard_url(const std::vector<json>& services, const std::string& host_ip) {
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
    const std::string suffix = ":" + std::to_string(node_port.get<long long>());
    if (!host_ip.empty()) return "http://" + host_ip + suffix;
  }
  return "";
}

namespace {

// What get reads besides the job objects and their pods.
struct GetExtras {
  std::vector<json> services;
  std::vector<json> events;
};

// A NodePort is open on every node: the host of the job's chief (else of any scheduled
// instance) serves it, and reading it needs no request of its own.
std::string job_host_ip(const TrainingJob& job) {
  if (!job.chief_node_ip.empty()) return job.chief_node_ip;
  for (const auto& i : job.instances)
    if (!i.node_ip.empty()) return i.node_ip;
  return "";
}

void add_extra_reads(const GetOptions& o, GetExtras& x, std::vector<StreamRead>& reads) {
  if (o.tensorboard) {
    reads.push_back({with_selector("/api/v1/namespaces/" + o.ns + "/services", "role=tensorboard,release=" + o.name),
                     true, 0, [&x](json& s) { x.services.push_back(std::move(s)); }});
  }
  if (o.events) {
    // Pod names start with the job's name: drop other events as they stream in.
    reads.push_back({"/api/v1/namespaces/" + o.ns + "/events", true, 0, [&x, &o](json& e) {
                       if (str(at(e, "involvedObject"), "name").rfind(o.name, 0) == 0)
                         x.events.push_back(std::move(e));
                     }});
  }
}

}  // namespace

GetResult get_job(kube::Client& client, const GetOptions& o, TimePoint now) {
  const size_t n = o.kinds.size();
  std::vector<std::optional<JobSummary>> objects(n);
  std::vector<std::vector<PodSummary>> pods(n);
  std::vector<StreamRead> reads;
  for (size_t k = 0; k < n; ++k) {
    const JobKind& kind = *o.kinds[k];
    auto* slot = &objects[k];
    reads.push_back({kind.resource.object_path(o.ns, o.name), false, 0,
                     [slot, &kind](json& j) { *slot = summarize_job(kind, j); }});
  }
  // One pod list per job-name label: kinds that share the label (PyTorchJob and MPIJob)
  // share the list and tell their pods apart by their extra selector terms.
  std::vector<std::string> labels;
  for (const auto* k : o.kinds)
    if (std::find(labels.begin(), labels.end(), k->pod_job_label) == labels.end()) labels.push_back(k->pod_job_label);
  for (const auto& l : labels) {
    std::vector<size_t> sharing;
    for (size_t k = 0; k < n; ++k)
      if (o.kinds[k]->pod_job_label == l) sharing.push_back(k);
    const std::string selector = sharing.size() == 1 ? o.kinds[sharing[0]]->pod_selector(o.name) : l + "=" + o.name;
    reads.push_back({with_selector(pods_path(o.ns), selector), true, 0, [&pods, &o, sharing](json& p) {
                       PodSummary s = summarize_pod(p);
                       for (size_t k : sharing)
                         if (pod_belongs_to(*o.kinds[k], s, o.ns, o.name)) pods[k].push_back(s);
                     }});
  }
  GetExtras extras;
  add_extra_reads(o, extras, reads);
  const auto missing = stream_all(client, reads);

  std::vector<size_t> found;
  for (size_t k = 0; k < n; ++k) {
    // The operator-free kind shares batch/v1 Jobs with everything else: only its labels count.
    if (missing[k] || !objects[k] || !objects[k]->selected) continue;
    found.push_back(k);
  }
  if (found.empty()) throw NotFoundError("job " + o.name + " not found in namespace " + o.ns);
  if (found.size() > 1) {
    std::string kinds;
    for (size_t i : found) kinds += (kinds.empty() ? "" : ", ") + o.kinds[i]->type;
    throw UsageError("there is more than one training job named " + o.name + " (" + kinds +
                     "): choose one with -T/--type");
  }
  const size_t k = found.front();
  GetResult r;
  r.job = build_job(*o.kinds[k], *objects[k], std::move(pods[k]), now);
  if (o.tensorboard) r.job.tensorboard = tensorboard_url(extras.services, job_host_ip(r.job));
  if (o.events) {
    std::set<std::string> names{o.name};
    for (const auto& i : r.job.instances) names.insert(i.name);
    for (auto& e : extras.events)
      if (names.count(str(at(e, "involvedObject"), "name"))) r.events.push_back(std::move(e));
  }
  return r;
}

}  // namespace trainctl::jobs
