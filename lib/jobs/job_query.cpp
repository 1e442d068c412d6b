#include "jobs/job_query.h"

#include <algorithm>
#include <optional>

#include "core/errors.h"
#include "core/log.h"
#include "jobs/build_job.h"
#include "jobs/find_jobs.h"
#include "jobs/diagnose/job_events.h"
#include "jobs/job_pods.h"
#include "jobs/json_util.h"
#include "jobs/legacy_pods.h"
#include "jobs/listed_jobs.h"
#include "jobs/diagnose/pending_query.h"
#include "jobs/pod_summary.h"
#include "jobs/trainjob_runtime_gpus.h"
#include "kube/list_reads.h"

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

kube::ListQuery selecting(const std::string& label_selector) {
  kube::ListQuery q;
  q.label_selector = label_selector;
  return q;
}

}  // namespace

ListedJobs read_listed_jobs(kube::Client& client, const std::string& ns,
                            const std::vector<const JobKind*>& kinds, TimePoint now, bool instances) {
  // Jobs and their pods by (kind, namespace, job name): the object and pods meet there as
  // they arrive, so memory follows the number of jobs.
  ListedJobs listed(kinds, instances, now);
  RuntimeGpus runtime_gpus;
  std::vector<kube::StreamRead> reads;
  for (size_t k = 0; k < kinds.size(); ++k) {
    const JobKind& kind = *kinds[k];
    auto on_job = [&listed, &runtime_gpus, &kind, k](json& item) {
      JobSummary s = summarize_job(kind, item);
      if (!s.selected) return;
      runtime_gpus.note(kind, k, item);
      listed.add_job(k, std::move(s));
    };
    reads.push_back(kube::list_read(kind.resource, ns, selecting(kind.list_selector), on_job));
  }
  std::vector<std::string> pod_labels;
  for (const auto* k : kinds)
    if (std::find(pod_labels.begin(), pod_labels.end(), k->pod_job_label) == pod_labels.end())
      pod_labels.push_back(k->pod_job_label);
  for (const auto& l : pod_labels) {
    const kube::ListQuery query = selecting(pods_list_selector(kinds, l));
    reads.push_back(kube::list_read(kube::pods(), ns, query, nullptr));
    // Summarized from the parsed page, never built (pod_summary.h).
    reads.back().on_page_item = [&listed, &kinds, l](const kube::PageItem& item) {
      PodSummary pod = summarize_pod(item, false);
      std::vector<std::pair<size_t, std::string>> owners;
      for (size_t k = 0; k < kinds.size(); ++k) {
        if (kinds[k]->pod_job_label != l) continue;
        std::string job = pod_job_of_kind(*kinds[k], pod);
        if (!job.empty()) owners.emplace_back(k, std::move(job));
      }
      for (size_t n = 0; n < owners.size(); ++n) {
        const auto& [k, job] = owners[n];
        if (n + 1 == owners.size())
          listed.add_pod(k, job, std::move(pod));
        else
          listed.add_pod(k, job, pod);
      }
    };
  }
  // Pods of older operator releases (legacy_pods.h), in the same round.
  for (const auto& entry : legacy_selectors(kinds)) {
    const std::string& selector = entry.first;  // (no structured binding: clang before 16 cannot capture one)
    reads.push_back(kube::list_read(kube::pods(), ns, selecting(selector), [&listed, &kinds, sharing = entry.second](json& item) {
      for (size_t k : sharing) {
        json mine = item;
        const std::string job = modernize_pod(*kinds[k], mine);
        if (!job.empty()) listed.add_pod(k, job, summarize_pod(mine, false));
      }
    }));
    reads.back().fields = &legacy_pod_fields();
  }
  const auto missing = kube::stream_all(client, reads, kube::kPageSize, [&listed, &runtime_gpus] {
    listed.clear();
    runtime_gpus.clear();
  });
  for (size_t k = 0; k < kinds.size(); ++k)
    if (missing[k]) log::debug("{} is not served by this cluster; skipping it", kinds[k]->resource.display());
  // A TrainJob without pods that asks for no GPUs itself shows its runtime's.
  if (!runtime_gpus.empty())
    runtime_gpus.resolve(
        client, [&listed](size_t k, const std::string& ns, const std::string& name) { return !listed.has_pods(k, ns, name); },
        [&listed](size_t k, const std::string& ns, const std::string& name, long long gpus) {
          listed.set_spec_gpus(k, ns, name, gpus);
        });
  listed.sort_newest_first();
  return listed;
}

JobList list_jobs(kube::Client& client, const std::string& ns, const std::vector<const JobKind*>& kinds,
                  TimePoint now, bool instances) {
  ListedJobs listed = read_listed_jobs(client, ns, kinds, now, instances);
  JobList jobs;
  for (size_t i = 0; i < listed.size(); ++i) jobs.push_back(listed.take(i));
  return jobs;
}

void sort_newest_first(JobList& jobs) {
  std::sort(jobs.begin(), jobs.end(), [](const TrainingJob& a, const TrainingJob& b) {
    return listed_before({a.created, a.kind, a.namespace_, a.name}, {b.created, b.kind, b.namespace_, b.name});
  });
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

void add_extra_reads(const GetOptions& o, GetExtras& x, std::vector<kube::StreamRead>& reads) {
  if (o.tensorboard) {
    reads.push_back(kube::list_read(kube::services(), o.ns, selecting("role=tensorboard,release=" + o.name),
                                    [&x](json& s) { x.services.push_back(std::move(s)); }));
  }
  if (o.events) {
    // Pod names start with "NAME-": drop other events as they stream in (job_events.h).
    reads.push_back(kube::list_read(kube::events(), o.ns, {}, [&x, &o](json& e) {
      if (may_be_about(o.name, e)) x.events.push_back(std::move(e));
    }));
  }
}

}  // namespace

GetResult get_job(kube::Client& client, const GetOptions& o, TimePoint now) {
  const size_t n = o.kinds.size();
  std::vector<std::optional<JobSummary>> objects(n);
  std::vector<JobPods> pods(n);
  std::vector<std::vector<json>> raw_pods(n);  // with o.pending: what explains a pending job
  std::vector<OwnObjects> own(n);             // with o.events: the pods whose events are the job's
  std::vector<std::vector<Replica>> replicas(n);
  RuntimeGpus runtime_gpus;
  std::vector<kube::StreamRead> reads;
  for (size_t k = 0; k < n; ++k) {
    const JobKind& kind = *o.kinds[k];
    auto* slot = &objects[k];
    reads.push_back(kube::object_read(kind.resource, o.ns, o.name, [slot, &kind, &runtime_gpus, k](json& j) {
      *slot = summarize_job(kind, j);
      runtime_gpus.note(kind, k, j);
    }));
  }
  auto take = [&pods, &raw_pods, &own, &replicas, &o](size_t k, const json& p, const PodSummary& s) {
    if (o.events) own[k].add(p);
    pods[k].add(*o.kinds[k], s);
    replicas[k].push_back(replica_of(*o.kinds[k], o.name, p));
    if (o.pending) raw_pods[k].push_back(p);
  };
  // One pod list per job-name label: kinds that share the label (PyTorchJob and MPIJob)
  // share the list and tell their pods apart by their extra selector terms.
  std::vector<std::string> labels;
  for (const auto* k : o.kinds)
    if (std::find(labels.begin(), labels.end(), k->pod_job_label) == labels.end())
      labels.push_back(k->pod_job_label);
  for (const auto& l : labels) {
    std::vector<size_t> sharing;
    for (size_t k = 0; k < n; ++k)
      if (o.kinds[k]->pod_job_label == l) sharing.push_back(k);
    const std::string selector =
        sharing.size() == 1 ? o.kinds[sharing[0]]->pod_selector(o.name) : l + "=" + o.name;
    reads.push_back(kube::list_read(kube::pods(), o.ns, selecting(selector), [&take, &o, sharing](json& p) {
      PodSummary s = summarize_pod(p);
      for (size_t k : sharing)
        if (pod_belongs_to(*o.kinds[k], s, o.ns, o.name)) take(k, p, s);
    }));
  }
  // Pods of older operator releases (legacy_pods.h), in the same round.
  for (const auto& entry : legacy_selectors(o.kinds)) {
    const std::string& selector = entry.first;
    reads.push_back(kube::list_read(kube::pods(), o.ns, selecting(selector), [&take, &o, sharing = entry.second](json& p) {
      for (size_t k : sharing) {
        json mine = p;
        if (modernize_pod(*o.kinds[k], mine) == o.name) take(k, mine, summarize_pod(mine));
      }
    }));
    reads.back().fields = &whole_legacy_pod_fields();
  }
  GetExtras extras;
  add_extra_reads(o, extras, reads);
  const auto missing = kube::stream_all(client, reads, kube::kPageSize, [&] {
    objects.assign(n, std::nullopt);
    for (size_t k = 0; k < n; ++k) pods[k] = JobPods();
    raw_pods.assign(n, {});
    own.assign(n, {});
    replicas.assign(n, {});
    extras = GetExtras{};
    runtime_gpus.clear();
  });

  // The operator-free kind shares batch/v1 Jobs with everything else: only its labels count.
  std::vector<bool> holds(n);
  for (size_t k = 0; k < n; ++k) holds[k] = !missing[k] && objects[k] && objects[k]->selected;
  const NameMatch match = match_name(o.name, o.kinds, holds, {});
  match.throw_unless_found(o.ns);
  const size_t k = std::find(o.kinds.begin(), o.kinds.end(), &match.kind()) - o.kinds.begin();
  // A TrainJob without pods that asks for no GPUs itself shows its runtime's.
  if (!runtime_gpus.empty())
    runtime_gpus.resolve(
        client, [&](size_t kk, const std::string&, const std::string&) { return kk == k && pods[k].count == 0; },
        [&](size_t, const std::string&, const std::string&, long long gpus) { objects[k]->spec_gpus = gpus; });
  GetResult r;
  r.job = build_job(*o.kinds[k], *objects[k], std::move(pods[k]), now);
  r.replicas = std::move(replicas[k]);
  if (o.tensorboard) r.job.tensorboard = tensorboard_url(extras.services, job_host_ip(r.job));
  if (o.events) {
    own[k].add(objects[k]->uid, o.name);
    for (auto& e : extras.events)
      if (own[k].about(e)) r.events.push_back(std::move(e));
  }
  if (o.pending && looks_pending(r.job)) {
    // The explanation is an extra: get shows the job without it when it cannot be read.
    try {
      r.pending = read_pending_reason(client, r.job, std::move(raw_pods[k]), &r.queue);
    } catch (const Error& e) {
      log::warn("cannot tell why the job is pending: {}", e.what());
    }
  }
  return r;
}

}  // namespace trainctl::jobs
