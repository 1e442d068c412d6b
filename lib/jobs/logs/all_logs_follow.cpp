// logs --all -f: one thread moves every replica's log stream and two watches (the job's pods
// by label selector, the job by name) through one kube::StreamSet. Watch events and stream
// ends are handled between runs of the set, never inside its handlers.
#include <algorithm>
#include <map>

#include "core/errors.h"
#include "core/log.h"
#include "jobs/logs/all_logs.h"
#include "jobs/legacy_pods.h"
#include "jobs/logs/log_merge.h"
#include "jobs/status_rules.h"
#include "kube/answer_shape.h"
#include "kube/query.h"
#include "kube/resource.h"
#include "kube/restart_backoff.h"
#include "kube/stream_set.h"
#include "kube/watch.h"

namespace trainctl::jobs {
namespace {

using SteadyClock = std::chrono::steady_clock;
using nlohmann::json;

constexpr auto kFollowTick = std::chrono::milliseconds(50);  // longest pause between handling events
constexpr auto kEndGrace = std::chrono::milliseconds(3000);  // streams of a finished job still running
constexpr int kMaxCutsInARow = 10;                           // cut connections in a row, per replica

struct FollowedPod {
  Replica replica;
  std::string uid;
  std::string container;
  std::string phase;
  int restarts = 0;
  bool deleted = false;
  std::unique_ptr<ReplicaLines> lines;
  std::optional<kube::StreamSet::Id> stream;
  bool got_lines = false;    // the current stream delivered something
  int opened_restarts = -1;  // restarts when the last stream was opened; -1 none yet
  bool done = false;         // the pod ended and its log was read to the end
  int failures = 0;
  SteadyClock::time_point next_try{};
};

bool pod_ended(const std::string& phase) { return phase == "Succeeded" || phase == "Failed"; }

int container_restarts(const json& pod, const std::string& container) {
  int n = 0;
  const auto st = pod.find("status");
  if (st == pod.end() || !st->contains("containerStatuses")) return 0;
  for (const auto& c : (*st)["containerStatuses"]) {
    if (!container.empty() && c.value("name", "") != container) continue;
    n = std::max(n, c.value("restartCount", 0));
  }
  return n;
}

class AllLogsFollower {
 public:
  AllLogsFollower(kube::Client& client, const AllLogsOptions& o, std::ostream& out)
      : m_client(client), m_o(o), m_out(out), m_set(client.stream_set()) {}

  FollowAllResult run() {
    list_pods();
    read_job();
    while (!finished()) {
      reopen_watches();
      open_streams();
      for (const auto& e : m_set->run(kFollowTick)) ended(e);
      m_merged.flush();
      for (auto& [type, obj] : std::exchange(m_pod_events, {})) pod_event(type, obj);
      for (auto& [type, obj] : std::exchange(m_job_events, {})) job_event(type, obj);
    }
    m_merged.flush();
    // A deleted job's pods go without their logs being owed.
    for (const auto& [name, t] : m_pods)
      if (!m_deleted && log_owed(t))
        log::warn("the log of {} was not read to its end: no lines came for {}s after the job ended", t.replica.pod,
                  std::chrono::duration_cast<std::chrono::seconds>(kEndGrace).count());
    FollowAllResult r;
    r.status = m_deleted ? std::nullopt : m_status;
    r.replicas = m_pods.size();
    return r;
  }

 private:
  struct Watch {
    std::optional<kube::StreamSet::Id> id;
    std::string rv;
    bool relist = false;
    size_t events = 0;  // ADDED, MODIFIED and DELETED events of the current stream
    // When it ended without an event, was cut or failed: opened again (listed again when
    // `relist`) at this time, as client-go's reflector waits (kube/restart_backoff.h).
    std::optional<SteadyClock::time_point> reopen_at;
    kube::RestartBackoff backoff;
  };

  // An ended pod whose log was cut before its end, or whose stream has not started.
  static bool log_owed(const FollowedPod& t) {
    return !t.done && !t.deleted && pod_ended(t.phase);
  }

  bool finished() {
    if (m_deleted) return true;
    if (!m_status || !is_finished(*m_status)) return false;
    if (!m_ended_at) m_ended_at = SteadyClock::now();
    // Streams still running, and ended pods whose log was cut before its end (or whose stream
    // has not started), get a moment: kEndGrace after the job ended or after the last lines
    // any stream brought, whichever is later, so that long logs of an ended job are read whole.
    const auto quiet_since = std::max(*m_ended_at, m_last_lines);
    for (const auto& [name, t] : m_pods)
      if (t.stream || log_owed(t)) return SteadyClock::now() - quiet_since > kEndGrace;
    return true;
  }

  // ---- the pods ----
  std::string pod_query(bool watch) const {
    kube::Query q;
    q.add("labelSelector", m_legacy ? m_o.kind->legacy_pod_selector : m_o.kind->pod_selector(m_o.job));
    if (watch) {
      q.add("watch", "true").add("allowWatchBookmarks", "true").add("timeoutSeconds", "300");
      if (!m_pod_watch.rv.empty()) q.add("resourceVersion", m_pod_watch.rv);
    }
    return kube::pods().collection_path(m_o.log.ns) + q.encode();
  }

  // The pods of the kind's current labels; where there are none and the kind has a legacy
  // selector, those of that selector (legacy_pods.h), watched from then on.
  void list_pods() {
    json list = kube::get_list(m_client, pod_query(false), "PodList");
    const bool none = !list.contains("items") || !list["items"].is_array() || list["items"].empty();
    if (none && !m_o.kind->legacy_pod_selector.empty()) {
      m_legacy = true;
      json older = kube::get_list(m_client, pod_query(false), "PodList");
      const bool some = older.contains("items") && older["items"].is_array() &&
                        std::any_of(older["items"].begin(), older["items"].end(),
                                    [&](const json& p) { return owned_by_job(p); });
      if (some) list = std::move(older);
      else m_legacy = false;
    }
    m_pod_watch.rv = list.contains("metadata") ? list["metadata"].value("resourceVersion", "") : "";
    if (list.contains("items"))
      for (const auto& pod : list["items"]) pod_event("ADDED", pod);
    m_pod_watch.id = m_set->add(watch_request(pod_query(true)), queue_to(m_pod_events, m_pod_watch));
  }

  bool owned_by_job(const json& pod) const {
    json copy = pod;
    return modernize_pod(*m_o.kind, copy) == m_o.job;
  }

  void pod_event(const std::string& type, const json& event_pod) {
    json modern;
    if (m_legacy) {
      modern = event_pod;
      if (modernize_pod(*m_o.kind, modern) != m_o.job) return;
    }
    const json& pod = m_legacy ? modern : event_pod;
    Replica r = replica_of(*m_o.kind, m_o.job, pod);
    if (!m_o.filter.matches(r)) return;
    auto it = m_pods.find(r.pod);
    if (type == "DELETED") {
      if (it != m_pods.end()) it->second.deleted = true;
      return;
    }
    const std::string uid = pod.contains("metadata") ? pod["metadata"].value("uid", "") : "";
    if (it == m_pods.end()) {
      if (m_pods.size() >= m_o.max_streams)
        throw UsageError("job " + m_o.job + " has more than " + std::to_string(m_o.max_streams) +
                         " replicas to follow, one connection each; choose some with --role or --rank");
      it = m_pods.emplace(r.pod, FollowedPod{}).first;
      it->second.lines = std::make_unique<ReplicaLines>(m_merged, "", m_o.log.timestamps);
      m_order.emplace(r.pod, m_order.size());
    }
    FollowedPod& t = it->second;
    const bool relabelled = t.replica.label != r.label;
    if (t.uid != uid) {  // a new pod of that name: its containers start from 0 restarts
      t.uid = uid;
      t.deleted = false;
      t.done = false;
      t.opened_restarts = -1;
    }
    t.replica = std::move(r);
    t.container = log_container(pod, m_o.log.container);
    t.phase = pod.contains("status") ? pod["status"].value("phase", "") : "";
    t.restarts = container_restarts(pod, t.container);
    if (relabelled) {
      m_width = std::max(m_width, t.replica.label.size());
      relabel();
    }
  }

  // Prefixes are padded to the widest label seen so far.
  void relabel() {
    for (auto& [name, t] : m_pods)
      t.lines->set_prefix(m_o.prefix ? log_prefix(t.replica.label.empty() ? name : t.replica.label, m_width,
                                                  m_o.color, m_order[name])
                                     : "");
  }

  // ---- the job ----
  std::string job_query(bool watch) const {
    kube::Query q;
    q.add("fieldSelector", "metadata.name=" + m_o.job);
    if (watch) {
      q.add("watch", "true").add("allowWatchBookmarks", "true").add("timeoutSeconds", "300");
      if (!m_job_watch.rv.empty()) q.add("resourceVersion", m_job_watch.rv);
    }
    return m_o.kind->resource.collection_path(m_o.log.ns) + q.encode();
  }

  void read_job() {
    const json list = kube::get_list(m_client, job_query(false), m_o.kind->resource.kind + "List");
    m_job_watch.rv = list.contains("metadata") ? list["metadata"].value("resourceVersion", "") : "";
    const bool found = list.contains("items") && list["items"].is_array() && !list["items"].empty();
    if (!found) m_deleted = true;
    if (found) job_event("ADDED", list["items"][0]);
    m_job_watch.id = m_set->add(watch_request(job_query(true)), queue_to(m_job_events, m_job_watch));
  }

  void job_event(const std::string& type, const json& job) {
    if (type == "DELETED") {
      m_deleted = true;
      return;
    }
    m_status = object_status(*m_o.kind, job);
  }

  // ---- streams ----
  static kube::Request watch_request(const std::string& path) {
    kube::Request r;
    r.path = path;
    return r;
  }

  kube::BlockHandler queue_to(std::vector<std::pair<std::string, json>>& events, Watch& w) {
    return [&events, &w](std::string_view block) {
      for (size_t start = 0; start < block.size();) {
        size_t end = block.find('\n', start);
        if (end == std::string_view::npos) end = block.size();
        auto ev = kube::parse_watch_event(block.substr(start, end - start));
        start = end + 1;
        if (!ev) continue;
        if (ev->type == "ERROR") {
          w.relist = true;  // 410 Expired and the like: list again
          return false;
        }
        if (!ev->resource_version.empty()) w.rv = ev->resource_version;
        if (ev->type == "BOOKMARK") continue;
        ++w.events;
        events.emplace_back(ev->type, std::move(ev->object));
      }
      return true;
    };
  }

  void open_streams() {
    const auto now = SteadyClock::now();
    const bool ending = m_status && is_finished(*m_status);
    for (auto& [name, t] : m_pods) {
      if (t.stream || t.done || now < t.next_try) continue;
      if (ending && !pod_ended(t.phase)) continue;
      if (t.deleted) {
        t.done = true;
        continue;
      }
      if (t.phase == "Pending" && t.restarts == 0 && !t.lines->last())
        continue;  // not started: the watch says when
      if (t.opened_restarts >= 0 && t.restarts > t.opened_restarts && t.lines->last()) read_previous(t);
      LogOptions l = m_o.log;
      l.pod = name;
      l.container = t.container;
      kube::Request r;
      const auto& last = t.lines->last();
      r.path = log_path(l, true, true, !last, last ? format_rfc3339(*last) : "");
      r.accept = "text/plain, */*";
      t.lines->resume();
      t.got_lines = false;
      t.opened_restarts = t.restarts;
      ReplicaLines* lines = t.lines.get();
      bool* got = &t.got_lines;
      t.stream = m_set->add(r, [this, lines, got](std::string_view block) {
        if (block.empty()) {
          m_merged.flush();
        } else {
          *got = true;
          m_last_lines = SteadyClock::now();
          lines->feed(block);
        }
        return true;
      });
      m_streams[*t.stream] = name;
    }
  }

  // The container restarted since its stream was opened: the end of the instance that ended
  // (the kubelet keeps one), from the last line written on.
  void read_previous(FollowedPod& t) {
    LogOptions l = m_o.log;
    l.pod = t.replica.pod;
    l.container = t.container;
    kube::Request r;
    r.path = log_path(l, false, true, false, format_rfc3339(*t.lines->last())) + "&previous=true";
    r.accept = "text/plain, */*";
    try {
      const std::string body = m_client.send(r).body;
      t.lines->resume();
      t.lines->feed(body);
      t.lines->end();
    } catch (const ApiError& e) {
      log::debug("no previous log of {}: {}", t.replica.pod, e.what());
    }
  }

  void ended(const kube::StreamSet::Ended& e) {
    if (e.id == m_pod_watch.id || e.id == m_job_watch.id) return watch_ended(e);
    auto s = m_streams.find(e.id);
    if (s == m_streams.end()) return;
    FollowedPod& t = m_pods.at(s->second);
    m_streams.erase(s);
    t.stream.reset();
    const auto now = SteadyClock::now();
    if (!e.error) {
      t.lines->end();
      t.failures = 0;
      if (pod_ended(t.phase) || t.deleted) t.done = true;
      // A stream that ends while its container lives: the container restarted (or the server
      // closed it); open it again, at once when it brought lines.
      t.next_try = t.got_lines ? now : now + m_o.reconnect_delay;
      return;
    }
    t.lines->cut();
    t.next_try = now + m_o.reconnect_delay;
    try {
      std::rethrow_exception(e.error);
    } catch (const ApiError& a) {
      // 400: the container is waiting to start; 404: the pod is gone (its watch event follows).
      if (a.http_status() != 400 && a.http_status() != 404) throw;
      log::debug("log of {} not available: {}", t.replica.pod, a.what());
    } catch (const TransportError& x) {
      log::debug("log stream of {} cut: {}", t.replica.pod, x.what());
      if (++t.failures > kMaxCutsInARow)
        throw TransportError("lost the log stream of " + t.replica.pod + " " + std::to_string(t.failures) +
                             " times; giving up");
    }
  }

  void watch_ended(const kube::StreamSet::Ended& e) {
    const bool pods = e.id == m_pod_watch.id;
    Watch& w = pods ? m_pod_watch : m_job_watch;
    w.id.reset();
    if (e.error) {
      try {
        std::rethrow_exception(e.error);
      } catch (const ApiError& a) {
        if (!kube::is_expired(a)) throw;
        w.relist = true;
      } catch (const TransportError& x) {
        if (++m_watch_cuts > 100) throw;
        log::debug("watch cut: {}", x.what());
      }
    }
    if (w.events > 0) w.backoff.reset();
    const auto now = SteadyClock::now();
    if (e.error || w.relist || w.events == 0) {
      const auto wait = w.backoff.next();
      const char* why = w.relist ? "must list again" : e.error ? "was cut" : "ended without an event";
      log::debug("watch of the {} {}; watching again in {} ms", pods ? "pods" : "job", why, wait.count());
      w.reopen_at = now + wait;
    } else {
      w.reopen_at = now;
    }
    reopen_watches();
  }

  // Opens the watches whose wait is over (listing again first after an ERROR event).
  void reopen_watches() {
    const auto now = SteadyClock::now();
    for (const bool pods : {true, false}) {
      Watch& w = pods ? m_pod_watch : m_job_watch;
      if (!w.reopen_at || *w.reopen_at > now) continue;
      w.reopen_at.reset();
      w.events = 0;
      if (w.relist) {
        w.relist = false;
        w.rv.clear();
        pods ? list_pods() : read_job();
        continue;
      }
      w.id = m_set->add(watch_request(pods ? pod_query(true) : job_query(true)),
                        pods ? queue_to(m_pod_events, m_pod_watch) : queue_to(m_job_events, m_job_watch));
    }
  }

  kube::Client& m_client;
  const AllLogsOptions& m_o;
  std::ostream& m_out;
  MergedOutput m_merged{m_out};
  std::unique_ptr<kube::StreamSet> m_set;
  std::map<std::string, FollowedPod> m_pods;
  std::map<std::string, size_t> m_order;  // colour index: order of appearance
  std::map<kube::StreamSet::Id, std::string> m_streams;
  size_t m_width = 0;
  Watch m_pod_watch, m_job_watch;
  bool m_legacy = false;  // the pods are an older release's (legacy_pods.h)
  std::vector<std::pair<std::string, json>> m_pod_events, m_job_events;
  std::optional<JobStatus> m_status;
  bool m_deleted = false;
  std::optional<SteadyClock::time_point> m_ended_at;
  SteadyClock::time_point m_last_lines{};  // when a log stream last brought lines
  int m_watch_cuts = 0;
};

}  // namespace

FollowAllResult follow_all_logs(kube::Client& client, const AllLogsOptions& o, std::ostream& out) {
  return AllLogsFollower(client, o, out).run();
}

}  // namespace trainctl::jobs
