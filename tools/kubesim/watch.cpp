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

}  // namespace

void Api::do_watch(ApiRequest& req) {
  const ApiPath& p = req.path;
  auto filter = std::make_shared<ListFilter>(
      ListFilter::parse(*p.rt, req.param("labelSelector"), req.param("fieldSelector")));
  std::string ns = p.has_ns ? p.ns : "";
  int timeout = 1800;
  if (!req.param("timeoutSeconds").empty()) {
    try {
      timeout = std::stoi(req.param("timeoutSeconds"));
    } catch (...) {
      throw bad_request("invalid timeoutSeconds: " + req.param("timeoutSeconds"));
    }
  }
  uint64_t since = 0;
  std::string rv_param = req.param("resourceVersion");
  if (!rv_param.empty()) {
    try {
      since = std::stoull(rv_param);
    } catch (...) {
      throw bad_request("invalid resource version: " + rv_param);
    }
  }
  disable_compression(req.http);
  if (req.fault && req.fault->action == "expire") {
    // Fault injection: the revision asked for is gone from the watch cache, which now starts
    // just after it.
    send_error_event(req.res, too_old_resource_version(since, since + 2));
    return;
  }
  auto queue = std::make_shared<StreamQueue>();
  // kubectl get --watch asks for Table objects: each event then carries a one-row Table.
  const ResourceType* rt = p.rt;
  Store* st = &m_store;
  bool table = wants_table(req.http);
  bool full = req.param("includeObject") == "Object";
  const bool bookmarks = req.flag("allowWatchBookmarks") && !table;
  auto encode = [rt, st, table, full](const std::shared_ptr<const json>& obj,
                                      const std::shared_ptr<const std::string>& enc) {
    if (!table) return enc ? *enc : obj->dump();
    Store::ListResult one;
    one.items.push_back(obj);
    one.resource_version = std::stoull((*obj)["metadata"].value("resourceVersion", "0"));
    return table_for(*rt, one, full, st->now());
  };
  auto last_sent = std::make_shared<std::atomic<uint64_t>>(0);
  auto matches = [filter, ns](const json& obj) {
    if (!ns.empty() && obj["metadata"].value("namespace", "") != ns) return false;
    return filter->matches(obj);
  };
  // Buffer live events from now on; drop those already covered by the initial state.
  auto pending = std::make_shared<std::vector<WatchEvent>>();
  auto ready = std::make_shared<std::atomic<bool>>(false);
  auto pending_mu = std::make_shared<std::mutex>();
  uint64_t handle = m_store.watch(p.rt, [=](const WatchEvent& ev) {
    std::lock_guard lock(*pending_mu);
    if (!ready->load()) {
      pending->push_back(ev);
      return true;
    }
    if (ev.resource_version <= last_sent->load()) return true;
    if (auto f = filter_event(ev, matches); f.type) {
      queue->push(event_line(f.type, encode(f.object, f.encoded)));
      last_sent->store(ev.resource_version);
    }
    return true;
  });
  uint64_t covered = 0;
  try {
    std::lock_guard lock(*pending_mu);
    if (since == 0) {
      // The initial state as a list selects it, with the field values kept beside each object.
      auto list = m_store.list_stored(*p.rt, ns, [&](const json& o, const FieldValues& v) { return filter->matches(o, v); });
      for (size_t i = 0; i < list.items.size(); ++i) queue->push(event_line("ADDED", encode(list.items[i], list.encoded[i])));
      covered = list.resource_version;
    } else {
      auto events = m_store.events_since(*p.rt, since);
      covered = since;
      for (const auto& ev : events) {
        if (auto f = filter_event(ev, matches); f.type) queue->push(event_line(f.type, encode(f.object, f.encoded)));
        covered = std::max(covered, ev.resource_version);
      }
    }
    last_sent->store(covered);
    for (const auto& ev : *pending) {
      if (ev.resource_version <= covered) continue;
      if (auto f = filter_event(ev, matches); f.type) {
        queue->push(event_line(f.type, encode(f.object, f.encoded)));
        last_sent->store(ev.resource_version);
      }
    }
    pending->clear();
    ready->store(true);
  } catch (const StatusError& e) {
    m_store.unwatch(handle);
    if (e.code != 410) throw;
    send_error_event(req.res, e);
    return;
  } catch (...) {
    m_store.unwatch(handle);
    throw;
  }
  int fd = request_socket(req.http);
  int cut_after = req.fault && req.fault->action == "cut" ? std::max(req.fault->lines, 0) : -1;
  const int end_after = req.fault && req.fault->action == "end" ? std::max(req.fault->lines, 0) : -1;
  using steady = std::chrono::steady_clock;
  const auto start = steady::now();
  const auto deadline = start + std::chrono::seconds(timeout);
  // The next bookmark: every interval, and one 2s before the deadline.
  const auto pre_timeout = deadline - std::chrono::seconds(2);
  const auto interval = m_bookmark_interval;
  auto next_bookmark = std::make_shared<steady::time_point>(
      bookmarks ? std::min(start + interval, pre_timeout) : steady::time_point::max());
  if (bookmarks && *next_bookmark < start) *next_bookmark = steady::time_point::max();
  const uint64_t initial_rv = covered;
  Store* store = &m_store;
  const std::atomic<bool>* stopping = &m_stopping;
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
          queue->push(bookmark_line(*rt, std::max(store->delivered_resource_version(), initial_rv)));
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
        auto lines = ended() ? std::deque<std::string>() : queue->take(wait);
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
        queue->close();
        store->unwatch(handle);
      });
}

}  // namespace kubesim
