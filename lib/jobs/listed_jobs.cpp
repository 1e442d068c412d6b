#include "jobs/listed_jobs.h"

#include <algorithm>
#include <functional>

#include "jobs/build_job.h"

namespace trainctl::jobs {

ListedJobs::ListedJobs(std::vector<const JobKind*> kinds, bool instances, TimePoint now)
    : m_kinds(std::move(kinds)), m_instances(instances), m_now(now) {}

namespace {

// Namespaces are interned: equal text, equal ref.
size_t key_hash(std::uint8_t kind, StrRef ns, std::string_view name) {
  size_t h = std::hash<std::string_view>{}(name);
  h ^= ((static_cast<size_t>(ns.block) << 32) ^ ns.offset) * 0x9E3779B97F4A7C15ULL;
  return h ^ (static_cast<size_t>(kind) + 1) * 0xC2B2AE3D27D4EB4FULL;
}

}  // namespace

size_t ListedJobs::hash(const Entry& e) const {
  return key_hash(e.kind, e.namespace_, m_strings.view(e.name));
}

void ListedJobs::grow_index() {
  std::vector<std::uint32_t> index(std::max<size_t>(1024, m_index.size() * 2), 0);
  const size_t mask = index.size() - 1;
  for (std::uint32_t i = 0; i < m_entries.size(); ++i) {
    size_t slot = hash(m_entries[i]) & mask;
    while (index[slot] != 0) slot = (slot + 1) & mask;
    index[slot] = i + 1;
  }
  m_index = std::move(index);
}

std::uint32_t ListedJobs::entry(size_t kind, std::string_view ns, std::string_view name) {
  Entry probe;
  probe.kind = static_cast<std::uint8_t>(kind);
  probe.namespace_ = m_strings.intern(ns);
  if (m_index.empty()) grow_index();
  const size_t mask = m_index.size() - 1;
  size_t slot = key_hash(probe.kind, probe.namespace_, name) & mask;
  for (; m_index[slot] != 0; slot = (slot + 1) & mask) {
    const std::uint32_t i = m_index[slot] - 1;
    const Entry& e = m_entries[i];
    if (e.kind == probe.kind && e.namespace_ == probe.namespace_ && m_strings.view(e.name) == name) return i;
  }
  const auto i = static_cast<std::uint32_t>(m_entries.size());
  probe.name = m_strings.keep(name);  // only for a new entry
  m_entries.push_back(std::move(probe));
  if (m_instances) m_details.emplace_back();
  m_index[slot] = i + 1;
  // At most half full, so that probes stay short.
  if (m_entries.size() * 2 > m_index.size()) grow_index();
  return i;
}

void ListedJobs::add_job(size_t kind, JobSummary job) {
  const std::uint32_t i = entry(kind, job.namespace_, job.name);
  Entry& e = m_entries[i];
  e.has_job = true;
  e.created = Time(job.created);
  e.status = job.status;
  e.start = Time(job.times.start);
  e.completion = Time(job.times.completion);
  e.ended = Time(job.times.ended);
  e.spec_gpus = job.spec_gpus;
  e.spec_priority = m_strings.intern(job.spec_priority);
  e.chief_task = m_strings.intern(job.chief_task);
  e.failed_reason = m_strings.intern(job.failed_reason);
  e.has_elastic = job.elastic.has_value();
  e.elastic = job.elastic.value_or(WorkerRange{});
  if (m_instances) m_details[i].uid = std::move(job.uid);
  if (job.progress)
    m_progress[i] = std::move(*job.progress);
  else
    m_progress.erase(i);
}

bool ListedJobs::has_pods(size_t kind, std::string_view ns, std::string_view name) {
  return m_entries[entry(kind, ns, name)].pods.count > 0;
}

void ListedJobs::set_spec_gpus(size_t kind, std::string_view ns, std::string_view name, long long gpus) {
  m_entries[entry(kind, ns, name)].spec_gpus = gpus;
}

void ListedJobs::add_pod(size_t kind, std::string_view job, PodSummary pod) {
  const std::uint32_t i = entry(kind, pod.namespace_, job);
  Entry& e = m_entries[i];
  e.pods.add(pod);
  if (takes_pending_reason(m_strings.view(e.pending_reason), pod.pending_reason))
    e.pending_reason = m_strings.intern(pod.pending_reason);
  fold_chief(e, *m_kinds[kind], pod);
  if (m_instances) m_details[i].instances.push_back(std::move(pod.instance));
}

ListedJobs::Chief ListedJobs::compact(const ChiefPod& pod, std::uint32_t seq) {
  Chief c;
  c.name = m_strings.keep(pod.name);
  c.node_ip = m_strings.intern(pod.node_ip);
  c.priority_class = m_strings.intern(pod.priority_class);
  c.task = m_strings.intern(pod.task);
  c.created = Time(pod.created);
  c.latest_transition = Time(pod.latest_transition);
  c.seq = seq;
  c.rank = static_cast<std::uint16_t>(pod.rank);
  c.pending = pod.pending;
  c.left_pending = pod.left_pending;
  return c;
}

ChiefPod ListedJobs::expand(const Chief& c) const {
  ChiefPod pod;
  pod.name = m_strings.view(c.name);
  pod.node_ip = m_strings.view(c.node_ip);
  pod.priority_class = m_strings.view(c.priority_class);
  pod.task = m_strings.view(c.task);
  pod.created = c.created.get();
  pod.latest_transition = c.latest_transition.get();
  pod.rank = c.rank;
  pod.pending = c.pending;
  pod.left_pending = c.left_pending;
  return pod;
}

// JobPods keeps every candidate and, while the job has one pod, that pod; choose_chief then
// takes, among the candidates of the job's chief task (or of no task), the first that none
// beats. Candidates of one task pass or fail that test together, so the first unbeaten of
// each task, in the order seen, is all it needs: the first unbeaten of all is among them.
void ListedJobs::fold_chief(Entry& e, const JobKind& kind, const PodSummary& pod) {
  const auto seq = static_cast<std::uint32_t>(e.pods.count);
  const std::optional<size_t> rank = chief_rank(kind, pod);
  if (!rank) {
    if (e.pods.count == 1) {
      e.chief = compact(ChiefPod::of(kind, pod), seq);
      e.chief_held = ChiefHeld::Only;
    } else if (e.chief_held == ChiefHeld::Only) {
      e.chief_held = ChiefHeld::None;
    }
    return;
  }
  ChiefPod candidate = ChiefPod::of(kind, pod);
  candidate.rank = *rank;
  if (e.chief_held != ChiefHeld::Candidate) {
    e.chief = compact(candidate, seq);
    e.chief_held = ChiefHeld::Candidate;
    return;
  }
  const StrRef task = m_strings.intern(candidate.task);
  Chief* held = e.chief.task == task ? &e.chief : nullptr;
  if (!held && e.more_chiefs)
    for (auto& c : *e.more_chiefs)
      if (c.task == task) held = &c;
  if (!held) {
    if (!e.more_chiefs) e.more_chiefs = std::make_unique<std::vector<Chief>>();
    e.more_chiefs->push_back(compact(candidate, seq));
  } else if (beats_as_chief(candidate, expand(*held))) {
    *held = compact(candidate, seq);
  }
}

void ListedJobs::clear() {
  m_strings.clear();
  m_entries.clear();
  m_details.clear();
  m_index.clear();
  m_order.clear();
  m_reasons.clear();
  m_progress.clear();
  m_any_elastic = false;
  m_any_progress = false;
}

void ListedJobs::sort_newest_first() {
  std::vector<std::uint32_t>().swap(m_index);  // nothing is added after this
  m_order.clear();
  m_any_elastic = false;
  m_any_progress = false;
  for (std::uint32_t i = 0; i < m_entries.size(); ++i) {
    if (!m_entries[i].has_job) continue;
    m_order.push_back(i);
    m_any_elastic = m_any_elastic || m_entries[i].has_elastic;
    m_any_progress = m_any_progress || m_progress.count(i) > 0;
  }
  const auto place = [this](std::uint32_t i) {
    const Entry& e = m_entries[i];
    return ListPlace{e.created.get().value_or(TimePoint{}), m_kinds[e.kind], m_strings.view(e.namespace_),
                     m_strings.view(e.name)};
  };
  std::sort(m_order.begin(), m_order.end(),
            [&](std::uint32_t a, std::uint32_t b) { return listed_before(place(a), place(b)); });
}

bool listed_before(const ListPlace& a, const ListPlace& b) {
  if (a.created != b.created) return a.created > b.created;
  if (a.kind != b.kind) return kind_order(a.kind) < kind_order(b.kind);
  if (a.namespace_ != b.namespace_) return a.namespace_ < b.namespace_;
  return a.name < b.name;
}

TrainingJob ListedJobs::build(std::uint32_t index, std::vector<Instance> instances) const {
  const Entry& e = m_entries[index];
  JobSummary s;
  s.name = m_strings.view(e.name);
  s.namespace_ = m_strings.view(e.namespace_);
  if (m_instances) s.uid = m_details[index].uid;
  s.created = e.created.get();
  s.status = e.status;
  s.times = StatusTimes{e.start.get(), e.completion.get(), e.ended.get()};
  s.spec_gpus = e.spec_gpus;
  s.spec_priority = m_strings.view(e.spec_priority);
  s.chief_task = m_strings.view(e.chief_task);
  if (e.has_elastic) s.elastic = e.elastic;
  s.failed_reason = m_strings.view(e.failed_reason);
  if (auto p = m_progress.find(index); p != m_progress.end()) s.progress = p->second;

  JobPods pods(m_instances);
  static_cast<PodTally&>(pods) = e.pods;
  pods.pending_reason = m_strings.view(e.pending_reason);
  if (e.chief_held == ChiefHeld::Candidate) {
    std::vector<const Chief*> candidates{&e.chief};
    if (e.more_chiefs)
      for (const auto& c : *e.more_chiefs) candidates.push_back(&c);
    // In the order the pods came, as JobPods holds them.
    std::sort(candidates.begin(), candidates.end(),
              [](const Chief* a, const Chief* b) { return a->seq < b->seq; });
    for (const auto* c : candidates) pods.candidates.push_back(expand(*c));
  }
  if (e.pods.count == 1 && e.chief_held != ChiefHeld::None)
    pods.only = std::make_unique<ChiefPod>(expand(e.chief));
  pods.instances = std::move(instances);

  TrainingJob job = build_job(*m_kinds[e.kind], s, std::move(pods), m_now);
  if (auto r = m_reasons.find(index); r != m_reasons.end()) job.reason = r->second;
  return job;
}

TrainingJob ListedJobs::job(size_t i) const {
  const std::uint32_t index = m_order.at(i);
  return build(index, m_instances ? m_details[index].instances : std::vector<Instance>{});
}

TrainingJob ListedJobs::take(size_t i) {
  const std::uint32_t index = m_order.at(i);
  return build(index, m_instances ? std::move(m_details[index].instances) : std::vector<Instance>{});
}

void ListedJobs::set_reason(size_t i, std::string reason) { m_reasons[m_order.at(i)] = std::move(reason); }

}  // namespace trainctl::jobs
