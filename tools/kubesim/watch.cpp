// watch=true: a chunked stream of {"type":..., "object":...} lines, as kube-apiserver's watch
// handler (k8s.io/apiserver v0.33.0 pkg/endpoints/handlers/watch.go) and watch cache
// (pkg/storage/cacher) send them:
// - once the request is accepted the answer is HTTP 200; a resourceVersion older than the
//   history window is then one ERROR event with a 410 Expired Status ("too old resource
//   version: RV (OLDEST-1)", cacher.go newErrWatcher) and the end of the stream;
// - with a label or field selector, an object that stops matching is a DELETED event and one
//   that starts matching an ADDED one (cache_watcher.go convertToWatchEvent);
// - with allowWatchBookmarks=true, BOOKMARK events (an object of the watched kind with only
//   metadata.resourceVersion) every bookmark interval and 2s before the watch's timeout
//   (cache_watcher.go nextBookmarkTime). Table watches (kubectl get -w) get none.
#include "kubesim/watch.h"

#include "kubesim/rest.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

namespace kubesim {

namespace {

std::string event_line(const char* type, const std::string& encoded) {
  std::string s = R"({"type":")";
  s += type;
  s += R"(","object":)";
  s += encoded;
  s += "}\n";
  return s;
}

std::string bookmark_line(const ResourceType& rt, uint64_t rv) {
  json obj = {{"kind", rt.kind},
              {"apiVersion", rt.api_version()},
              {"metadata", {{"resourceVersion", std::to_string(rv)}}}};
  return event_line("BOOKMARK", obj.dump());
}

// HTTP 200, one ERROR event carrying the Status, then the end of the stream.
void send_error_event(httplib::Response& res, const StatusError& e) {
  auto line = std::make_shared<std::string>(event_line("ERROR", e.to_status().dump()));
  res.status = 200;
  res.set_header("Cache-Control", "no-cache, private");
  res.set_chunked_content_provider("application/json", [line](size_t, httplib::DataSink& sink) {
    if (sink.write(line->data(), line->size())) sink.done();
    return true;
  });
}

// What a filtered watch sends for a change (k8s.io/apiserver pkg/storage/cacher/cache_watcher.go
// convertToWatchEvent): ADDED when the object starts matching, MODIFIED while it matches,
// DELETED, with the object as it was but the change's resourceVersion, when it stops
// matching or is deleted; nothing when it matched neither before nor after.
struct FilteredEvent {
  const char* type = nullptr;  // nullptr: not sent
  std::shared_ptr<const json> object;
  std::shared_ptr<const std::string> encoded;  // object->dump() when known
};

template <typename Matches>
FilteredEvent filter_event(const WatchEvent& ev, const Matches& matches) {
  const bool now = ev.type != EventType::Deleted && matches(*ev.object);
  const bool before = ev.prev && matches(*ev.prev);
  if (now) return {before ? "MODIFIED" : "ADDED", ev.object, ev.encoded};
  if (!before) return {};
  if (ev.type == EventType::Deleted) return {"DELETED", ev.object, ev.encoded};
  json gone = *ev.prev;
  gone["metadata"]["resourceVersion"] = std::to_string(ev.resource_version);
  return {"DELETED", std::make_shared<const json>(std::move(gone)), nullptr};
}

// The options of a watch request (handlers/get.go ListResource: timeoutSeconds, resourceVersion,
// the selectors, the namespace of the path).
struct WatchOptions {
  std::shared_ptr<ListFilter> filter;
  std::string ns;
  int timeout = 1800;
  uint64_t since = 0;
};

WatchOptions parse_watch_options(const ApiRequest& req) {
  const ApiPath& p = req.path;
  WatchOptions o;
  o.filter = std::make_shared<ListFilter>(
      ListFilter::parse(*p.rt, req.param("labelSelector"), req.param("fieldSelector")));
  o.ns = p.has_ns ? p.ns : "";
  if (!req.param("timeoutSeconds").empty()) {
    try {
      o.timeout = std::stoi(req.param("timeoutSeconds"));
    } catch (...) {
      throw bad_request("invalid timeoutSeconds: " + req.param("timeoutSeconds"));
    }
  }
  std::string rv_param = req.param("resourceVersion");
  if (!rv_param.empty()) {
    try {
      o.since = std::stoull(rv_param);
    } catch (...) {
      throw bad_request("invalid resource version: " + rv_param);
    }
  }
  return o;
}

// One watcher (cacher's cacheWatcher): the lines it queues for the client, and the live
// events it buffers until its initial events are queued.
struct Watcher {
  const ResourceType* rt = nullptr;
  Store* store = nullptr;
  WatchOptions options;
  bool table = false;  // kubectl get --watch asks for Table objects: each event a one-row Table
  bool full = false;   // includeObject=Object
  StreamQueue queue;
  std::atomic<uint64_t> last_sent{0};
  std::mutex pending_mu;
  std::vector<WatchEvent> pending;  // live events from the start on, until ready
  bool ready = false;

  std::string encode(const std::shared_ptr<const json>& obj, const std::shared_ptr<const std::string>& enc) const {
    if (!table) return enc ? *enc : obj->dump();
    Store::ListResult one;
    one.items.push_back(obj);
    one.resource_version = std::stoull((*obj)["metadata"].value("resourceVersion", "0"));
    return table_for(*rt, one, full, store->now());
  }
  bool matches(const json& obj) const {
    if (!options.ns.empty() && obj["metadata"].value("namespace", "") != options.ns) return false;
    return options.filter->matches(obj);
  }
  // Queues ev as a filtered watch sees it; true when a line was queued.
  bool send(const WatchEvent& ev) {
    auto f = filter_event(ev, [this](const json& o) { return matches(o); });
    if (!f.type) return false;
    queue.push(event_line(f.type, encode(f.object, f.encoded)));
    return true;
  }
  // The store's callback (cacheWatcher.add, then process: only events newer than what was sent).
  void add(const WatchEvent& ev) {
    std::lock_guard lock(pending_mu);
    if (!ready) {
      pending.push_back(ev);
      return;
    }
    if (ev.resource_version <= last_sent.load()) return;
    if (send(ev)) last_sent.store(ev.resource_version);
  }
  // processInterval: the initial events (the state as a list selects it, or the history since
  // the resourceVersion asked for), then the live events buffered meanwhile that they do not
  // cover. Returns the resourceVersion the initial events cover. Throws the 410 of a version
  // older than the history.
  uint64_t process_interval() {
    std::lock_guard lock(pending_mu);
    uint64_t covered = 0;
    if (options.since == 0) {
      // The field values and labels are kept beside each stored object.
      auto list = store->list_stored(*rt, options.ns, [&](const json&, const FieldValues& v, const LabelValues& l) {
        return options.filter->matches(v, l);
      });
      for (size_t i = 0; i < list.items.size(); ++i)
        queue.push(event_line("ADDED", encode(list.items[i], list.encoded[i])));
      covered = list.resource_version;
    } else {
      auto events = store->events_since(*rt, options.since);
      covered = options.since;
      for (const auto& ev : events) {
        send(ev);
        covered = std::max(covered, ev.resource_version);
      }
    }
    last_sent.store(covered);
    for (const auto& ev : pending) {
      if (ev.resource_version <= covered) continue;
      if (send(ev)) last_sent.store(ev.resource_version);
    }
    pending.clear();
    ready = true;
    return covered;
  }
};

// WatchServer.HandleHTTP: HTTP 200 and a chunked stream of the watcher's lines until the
// timeout, the client's close or the server's shutdown; BOOKMARKs (allowWatchBookmarks, no
// Table) every interval and 2s before the timeout (cache_watcher.go nextBookmarkTime); the
// faults "cut" (the connection dropped after N events) and "end" (a clean end after N).
void serve_watch(ApiRequest& req, const std::shared_ptr<Watcher>& w, uint64_t handle, uint64_t initial_rv,
                 std::chrono::milliseconds interval, const std::atomic<bool>* stopping) {
  const bool bookmarks = req.flag("allowWatchBookmarks") && !w->table;
  int fd = request_socket(req.http);
  int cut_after = req.fault && req.fault->action == "cut" ? std::max(req.fault->lines, 0) : -1;
  const int end_after = req.fault && req.fault->action == "end" ? std::max(req.fault->lines, 0) : -1;
  using steady = std::chrono::steady_clock;
  const auto start = steady::now();
  const auto deadline = start + std::chrono::seconds(w->options.timeout);
  // The next bookmark: every interval, and one 2s before the deadline.
  const auto pre_timeout = deadline - std::chrono::seconds(2);
  auto next_bookmark = std::make_shared<steady::time_point>(
      bookmarks ? std::min(start + interval, pre_timeout) : steady::time_point::max());
  if (bookmarks && *next_bookmark < start) *next_bookmark = steady::time_point::max();
  Store* store = w->store;
  auto sent = std::make_shared<int>(0);
  req.res.status = 200;
  req.res.set_header("Cache-Control", "no-cache, private");
  req.res.set_chunked_content_provider(
      "application/json",
      [=](size_t, httplib::DataSink& sink) {
        auto now = steady::now();
        if (now >= *next_bookmark) {
          // Every event at or below the delivered version is queued already: the bookmark
          // follows them.
          w->queue.push(bookmark_line(*w->rt, std::max(store->delivered_resource_version(), initial_rv)));
          const bool was_pre_timeout = *next_bookmark >= pre_timeout;
          *next_bookmark =
              was_pre_timeout ? steady::time_point::max() : std::min(now + interval, pre_timeout);
        }
        auto wait = std::chrono::milliseconds(500);
        if (*next_bookmark != steady::time_point::max())
          wait = std::clamp(std::chrono::duration_cast<std::chrono::milliseconds>(*next_bookmark - now),
                            std::chrono::milliseconds(1), wait);
        // fault "end": the stream ends cleanly after end_after events, the rest unsent.
        const auto ended = [&] { return end_after >= 0 && *sent >= end_after; };
        auto lines = ended() ? std::deque<std::string>() : w->queue.take(wait);
        for (auto& l : lines) {
          if (cut_after >= 0 && *sent >= cut_after) return false;  // fault: cut the stream
          if (ended()) break;
          if (!sink.write(l.data(), l.size())) return false;
          ++*sent;
        }
        if (cut_after >= 0 && *sent >= cut_after) return false;
        if (ended() || steady::now() >= deadline || stopping->load() || peer_closed(fd)) {
          sink.done();
          return true;
        }
        return true;
      },
      [=](bool) {
        w->queue.close();
        store->unwatch(handle);
      });
}

}  // namespace

// The watch handler in kube-apiserver's split (kubernetes/apiserver@v0.33.0): the options
// (pkg/endpoints/handlers/get.go ListResource), the watcher and its initial events
// (pkg/storage/cacher/cache_watcher.go newCacheWatcher, processInterval), then the stream
// (pkg/endpoints/handlers/watch.go WatchServer.HandleHTTP: serve_watch below).
void Api::do_watch(ApiRequest& req) {
  WatchOptions options = parse_watch_options(req);
  disable_compression(req.http);
  if (req.fault && req.fault->action == "expire") {
    // Fault injection: the revision asked for is gone from the watch cache, which now starts
    // just after it.
    send_error_event(req.res, too_old_resource_version(options.since, options.since + 2));
    return;
  }
  auto w = std::make_shared<Watcher>();
  w->rt = req.path.rt;
  w->store = &m_store;
  w->options = std::move(options);
  w->table = wants_table(req.http);
  w->full = req.param("includeObject") == "Object";
  // Buffer live events from now on; drop those already covered by the initial state.
  const uint64_t handle = m_store.watch(w->rt, [w](const WatchEvent& ev) {
    w->add(ev);
    return true;
  });
  uint64_t covered = 0;
  try {
    covered = w->process_interval();
  } catch (const StatusError& e) {
    m_store.unwatch(handle);
    if (e.code != 410) throw;
    send_error_event(req.res, e);
    return;
  } catch (...) {
    m_store.unwatch(handle);
    throw;
  }
  serve_watch(req, w, handle, covered, m_bookmark_interval, &m_stopping);
}

}  // namespace kubesim
