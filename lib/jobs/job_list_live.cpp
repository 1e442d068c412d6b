#include "jobs/job_list_live.h"

#include <algorithm>

#include "jobs/build_job.h"
#include "jobs/job_pods.h"
#include "jobs/job_query.h"

namespace trainctl::jobs {

using nlohmann::json;

namespace {

std::string entry_key(size_t kind, const std::string& ns, const std::string& name) {
  return std::to_string(kind) + "/" + ns + "/" + name;
}

kube::ListQuery label_query(const std::string& label_selector) {
  kube::ListQuery q;
  q.label_selector = label_selector;
  return q;
}

}  // namespace

LiveJobs::LiveJobs(std::string ns, std::vector<const JobKind*> kinds, bool instances)
    : m_ns(std::move(ns)), m_kinds(std::move(kinds)), m_instances(instances) {}

std::vector<kube::Collection> LiveJobs::collections() {
  std::vector<kube::Collection> out;
  for (size_t k = 0; k < m_kinds.size(); ++k)
    out.push_back({m_kinds[k]->resource.collection_path(m_ns), label_query(m_kinds[k]->list_selector),
                   [this, k] {
                     for (auto& [key, e] : m_entries)
                       if (e.kind == k) e.job.reset();
                   },
                   [this, k](json& o) { put_job(k, o); }, [this, k](json& o) { delete_job(k, o); }});
  std::vector<std::string> labels;
  for (const auto* k : m_kinds)
    if (std::find(labels.begin(), labels.end(), k->pod_job_label) == labels.end()) labels.push_back(k->pod_job_label);
  for (const auto& l : labels)
    out.push_back({kube::pods().collection_path(m_ns), label_query(l),
                   [this, l] {
                     for (auto& [key, e] : m_entries)
                       if (m_kinds[e.kind]->pod_job_label == l) e.pods.clear();
                   },
                   [this, l](json& o) { put_pod(l, o, false); }, [this, l](json& o) { put_pod(l, o, true); },
                   &pod_summary_fields()});
  return out;
}

TrainingJob LiveJobs::build(const Entry& e, TimePoint now) const {
  const JobKind& kind = *m_kinds[e.kind];
  JobPods pods(m_instances);
  for (const auto& [name, p] : e.pods) pods.add(kind, p);
  return build_job(kind, *e.job, std::move(pods), now);
}

void LiveJobs::put_job(size_t k, const json& object) {
  JobSummary s = summarize_job(*m_kinds[k], object);
  const std::string key = entry_key(k, s.namespace_, s.name);
  if (!s.selected) {
    m_entries[key].job.reset();
    return;
  }
  Entry& e = m_entries[key];
  e.kind = k;
  e.job = std::move(s);
  m_changed.insert(key);
  m_deleted.erase(key);
}

void LiveJobs::delete_job(size_t k, const json& object) {
  const JobSummary s = summarize_job(*m_kinds[k], object);
  const std::string key = entry_key(k, s.namespace_, s.name);
  auto it = m_entries.find(key);
  if (it == m_entries.end() || !it->second.job) return;
  m_deleted.insert_or_assign(key, it->second);
  it->second.job.reset();
  m_changed.erase(key);
}

void LiveJobs::put_pod(const std::string& label, const json& object, bool deleted) {
  PodSummary pod = summarize_pod(object, false);
  for (size_t k = 0; k < m_kinds.size(); ++k) {
    if (m_kinds[k]->pod_job_label != label) continue;
    const std::string job = pod_job_of_kind(*m_kinds[k], pod);
    if (job.empty()) continue;
    const std::string key = entry_key(k, pod.namespace_, job);
    Entry& e = m_entries[key];
    e.kind = k;
    if (deleted)
      e.pods.erase(pod.instance.name);
    else
      e.pods.insert_or_assign(pod.instance.name, pod);
    if (e.job) m_changed.insert(key);
  }
}

JobList LiveJobs::snapshot(TimePoint now) const {
  JobList jobs;
  for (const auto& [key, e] : m_entries)
    if (e.job) jobs.push_back(build(e, now));
  sort_newest_first(jobs);
  return jobs;
}

std::vector<LiveJobs::Change> LiveJobs::take_changes(TimePoint now) {
  std::vector<Change> out;
  for (const auto& key : m_changed) {
    auto it = m_entries.find(key);
    if (it != m_entries.end() && it->second.job) out.push_back({build(it->second, now), false});
  }
  for (const auto& [key, e] : m_deleted) out.push_back({build(e, now), true});
  m_changed.clear();
  m_deleted.clear();
  return out;
}

}  // namespace trainctl::jobs
