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

LiveJobs::LiveJobs(std::string ns, std::vector<const JobKind*> kinds, bool instances, kube::Client* runtimes)
    : m_ns(std::move(ns)), m_kinds(std::move(kinds)), m_instances(instances), m_runtimes_from(runtimes) {}

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
    out.push_back({kube::pods().collection_path(m_ns), label_query(pods_list_selector(m_kinds, l)),
                   [this, l] {
                     for (auto& [key, e] : m_entries) {
                       if (m_kinds[e.kind]->pod_job_label != l) continue;
                       for (const auto& p : e.pods) m_names_dead += m_names.view(p.name).size();
                       for (const auto& p : e.pods) m_names_live -= m_names.view(p.name).size();
                       e.pods.clear();
                       e.instances.clear();
                     }
                     compact_names();
                   },
                   [this, l](json& o) { put_pod(l, o, false); }, [this, l](json& o) { put_pod(l, o, true); },
                   &pod_summary_fields()});
  return out;
}

namespace {

std::int32_t narrow(long long n) {
  return static_cast<std::int32_t>(std::clamp<long long>(n, INT32_MIN, INT32_MAX));
}

}  // namespace

std::uint32_t LiveJobs::LivePod::seconds_of(const std::optional<TimePoint>& t) {
  if (!t) return kNoTime;
  const auto s = std::chrono::floor<std::chrono::seconds>(t->time_since_epoch()).count();
  return static_cast<std::uint32_t>(std::clamp<long long>(s, 0, kNoTime - 1));
}

std::optional<TimePoint> LiveJobs::LivePod::time_of(std::uint32_t seconds) {
  if (seconds == kNoTime) return std::nullopt;
  return TimePoint(std::chrono::seconds(seconds));
}

std::vector<LiveJobs::LivePod>::iterator LiveJobs::find_pod(Entry& e, std::string_view name) {
  if (!e.pods.empty() && m_names.view(e.pods.back().name) < name) return e.pods.end();  // a list's order
  return std::lower_bound(e.pods.begin(), e.pods.end(), name,
                          [this](const LivePod& p, std::string_view n) { return m_names.view(p.name) < n; });
}

void LiveJobs::erase_pod(Entry& e, std::string_view name) {
  auto it = find_pod(e, name);
  if (it == e.pods.end() || m_names.view(it->name) != name) return;
  m_names_live -= name.size();
  m_names_dead += name.size();
  e.pods.erase(it);
  e.instances.erase(std::string(name));
  compact_names();
}

void LiveJobs::put_pod(Entry& e, const JobKind& kind, PodSummary pod) {
  static_assert(sizeof(LivePod) <= 48, "150,000 pods in 7 MB (docs/performance.md)");
  const std::string& name = pod.instance.name;
  auto it = find_pod(e, name);
  const bool held = it != e.pods.end() && m_names.view(it->name) == name;
  const ChiefPod chief = ChiefPod::of(kind, pod);
  LivePod p;
  p.name = held ? it->name : m_names.keep(name);
  p.node_ip = m_strings.intern_id(chief.node_ip);
  p.priority_class = m_strings.intern_id(chief.priority_class);
  p.task = m_strings.intern_id(chief.task);
  p.pending_reason = m_strings.intern_id(pod.pending_reason);
  p.created = LivePod::seconds_of(chief.created);
  p.latest_transition = LivePod::seconds_of(chief.latest_transition);
  p.gpus = narrow(pod.instance.gpus);
  p.owner_request = narrow(pod.owner_request);
  const std::optional<size_t> rank = chief_rank(kind, pod);
  p.rank = rank ? static_cast<std::uint8_t>(std::min<size_t>(*rank, LivePod::kNoRank - 1)) : LivePod::kNoRank;
  p.running = pod.instance.phase == "Running";
  p.pending = chief.pending;
  p.left_pending = chief.left_pending;
  p.holds_gpus = pod.holds_gpus();
  if (m_instances) e.instances.insert_or_assign(name, std::move(pod.instance));
  if (held) {
    *it = p;
    return;
  }
  m_names_live += name.size();
  e.pods.insert(it, p);
}

void LiveJobs::compact_names() {
  if (m_names_dead < (1u << 20) || m_names_dead < m_names_live) return;
  StringStore names;
  for (auto& [key, e] : m_entries)
    for (auto& p : e.pods) p.name = names.keep(m_names.view(p.name));
  for (auto& [key, e] : m_deleted)
    for (auto& p : e.pods) p.name = names.keep(m_names.view(p.name));
  m_names = std::move(names);
  m_names_dead = 0;
}

TrainingJob LiveJobs::build(const Entry& e, TimePoint now) const {
  const JobKind& kind = *m_kinds[e.kind];
  JobPods pods(m_instances);
  for (const auto& p : e.pods) {
    PodTally one;
    one.count = 1;
    one.running = p.running ? 1 : 0;
    one.any_pending = p.pending;
    one.gpus = p.gpus;
    one.gpus_held = p.holds_gpus ? p.gpus : 0;
    one.owner_request = p.owner_request;
    ChiefPod chief;
    chief.name = m_names.view(p.name);
    chief.node_ip = m_strings.view_id(p.node_ip);
    chief.priority_class = m_strings.view_id(p.priority_class);
    chief.task = m_strings.view_id(p.task);
    chief.created = LivePod::time_of(p.created);
    chief.latest_transition = LivePod::time_of(p.latest_transition);
    chief.pending = p.pending;
    chief.left_pending = p.left_pending;
    const std::optional<size_t> rank = p.rank == LivePod::kNoRank ? std::nullopt : std::optional<size_t>(p.rank);
    Instance row;
    Instance* instance = nullptr;
    if (auto i = e.instances.find(chief.name); i != e.instances.end()) {
      row = i->second;
      instance = &row;
    }
    pods.add(one, m_strings.view_id(p.pending_reason), std::move(chief), rank, instance);
  }
  return build_job(kind, *e.job, std::move(pods), now);
}

void LiveJobs::put_job(size_t k, const json& object) {
  JobSummary s = summarize_job(*m_kinds[k], object);
  const std::string key = entry_key(k, s.namespace_, s.name);
  if (!s.selected) {
    m_entries[key].job.reset();
    m_runtime_gpus.forget(key);
    return;
  }
  if (m_runtimes_from)
    if (auto gpus = m_runtime_gpus.gpus(*m_kinds[k], key, object)) s.spec_gpus = *gpus;
  Entry& e = m_entries[key];
  e.kind = k;
  e.job = std::move(s);
  m_changed.insert(key);
  m_deleted.erase(key);
}

void LiveJobs::delete_job(size_t k, const json& object) {
  const JobSummary s = summarize_job(*m_kinds[k], object);
  const std::string key = entry_key(k, s.namespace_, s.name);
  m_runtime_gpus.forget(key);
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
      erase_pod(e, pod.instance.name);
    else
      put_pod(e, *m_kinds[k], pod);
    if (e.job) m_changed.insert(key);
  }
}

void LiveJobs::read_runtimes() {
  if (!m_runtimes_from || !m_runtime_gpus.waiting()) return;
  m_runtime_gpus.read(*m_runtimes_from, [this](const std::string& key, long long gpus) {
    auto it = m_entries.find(key);
    if (it == m_entries.end() || !it->second.job) return;
    it->second.job->spec_gpus = gpus;
    m_changed.insert(key);
  });
}

JobList LiveJobs::snapshot(TimePoint now) {
  read_runtimes();
  JobList jobs;
  for (const auto& [key, e] : m_entries)
    if (e.job) jobs.push_back(build(e, now));
  sort_newest_first(jobs);
  // Not kept for a take_changes() that would build every job a second time (list -w's
  // first view), or never come (top job -r).
  m_changed.clear();
  m_deleted.clear();
  return jobs;
}

std::vector<LiveJobs::Change> LiveJobs::take_changes(TimePoint now) {
  read_runtimes();
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
