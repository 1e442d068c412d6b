#include "kube/reflector.h"

#include <thread>

#include "core/errors.h"
#include "core/log.h"
#include "kube/list_reads.h"
#include "kube/stream_set.h"
#include "kube/watch.h"

namespace trainctl::kube {

Reflectors::Reflectors(Client& client, std::vector<Collection> collections,
                       std::chrono::seconds watch_timeout, Timing timing)
    : m_client(client),
      m_collections(std::move(collections)),
      m_versions(m_collections.size()),
      m_watch_timeout(watch_timeout),
      m_watch_events(m_collections.size()),
      m_timing(std::move(timing)) {
  for (size_t i = 0; i < m_collections.size(); ++i) m_backoff.emplace_back(m_timing.backoff, m_timing.now);
}

Reflectors::~Reflectors() = default;

StreamRead Reflectors::listing(size_t i) {
  const auto& c = m_collections[i];
  StreamRead r{c.path, true, c.query, c.on_put, [this, i](const std::string& rv) { m_versions[i] = rv; }};
  r.fields = c.fields;
  return r;
}

void Reflectors::start() {
  std::vector<StreamRead> reads;
  for (size_t i = 0; i < m_collections.size(); ++i) {
    auto& c = m_collections[i];
    if (c.on_reset) c.on_reset();
    reads.push_back(listing(i));
  }
  const auto missing = stream_all(m_client, reads, kPageSize, [this] {
    for (auto& c : m_collections)
      if (c.on_reset) c.on_reset();
  });
  m_stats.lists += m_collections.size();
  m_set = m_client.stream_set();
  // A resource the cluster does not serve (a kind whose CRD is not installed: 404) is left
  // out as list leaves it out; its watch would only answer 404 again.
  for (size_t i = 0; i < m_collections.size(); ++i)
    if (served(i, missing[i])) open_watch(i);
}

bool Reflectors::served(size_t i, bool missing) const {
  if (missing) log::debug("{} is not served by this cluster; not watching it", m_collections[i].path);
  return !missing;
}

bool Reflectors::relist(size_t i) {
  auto& c = m_collections[i];
  if (c.on_reset) c.on_reset();
  const auto missing = stream_all(m_client, {listing(i)}, kPageSize, c.on_reset);
  ++m_stats.lists;
  return served(i, missing[0]);
}

void Reflectors::open_watch(size_t i) {
  const auto& c = m_collections[i];
  Query q;
  if (!c.query.label_selector.empty()) q.add("labelSelector", c.query.label_selector);
  if (!c.query.field_selector.empty()) q.add("fieldSelector", c.query.field_selector);
  q.add("watch", "true").add("allowWatchBookmarks", "true").add("resourceVersion", m_versions[i]);
  q.add("timeoutSeconds", std::to_string(m_watch_timeout.count()));
  Request req;
  req.path = c.path + q.encode();
  const auto id = m_set->add(req, [this, i](std::string_view lines) { return on_lines(i, lines); });
  m_open.emplace_back(id, i);
  m_watch_events[i] = 0;
  ++m_stats.watches;
}

bool Reflectors::on_lines(size_t i, std::string_view lines) {
  const auto& c = m_collections[i];
  while (!lines.empty()) {
    const size_t nl = lines.find('\n');
    const std::string_view line = lines.substr(0, nl);
    lines = nl == std::string_view::npos ? std::string_view() : lines.substr(nl + 1);
    auto ev = parse_watch_event(line);
    if (!ev) continue;
    if (ev->type == "ERROR") throw watch_error(ev->object);
    if (!ev->resource_version.empty()) m_versions[i] = ev->resource_version;
    if (ev->type == "BOOKMARK") continue;
    if (ev->type == "DELETED") {
      if (c.on_delete) c.on_delete(ev->object);
    } else if (c.on_put) {
      c.on_put(ev->object);
    }
    ++m_changed;
    ++m_stats.events;
    ++m_watch_events[i];
  }
  return true;
}

// What comes after a watch ends, as client-go's reflector decides it (tools/cache/reflector.go
// watch() and RunWithContext): a watch that delivered events and ended cleanly is opened again
// at once; every other end waits the collection's backoff first, a 410 Expired then lists
// the collection again. A 4xx other than 410 and 429 ends the view.
void Reflectors::ended(const StreamSet::Ended& e, TimePoint now) {
  size_t i = 0;
  for (auto it = m_open.begin(); it != m_open.end(); ++it)
    if (it->first == e.id) {
      i = it->second;
      m_open.erase(it);
      break;
    }
  const std::string& path = m_collections[i].path;
  if (m_watch_events[i] > 0) m_backoff[i].reset();
  Restart r{i, now, false};
  std::string why;
  if (e.error) {
    try {
      std::rethrow_exception(e.error);
    } catch (const ApiError& x) {
      if (is_expired(x)) {
        r.relist = true;
        why = fmt::format("{} (410 {}); listing again", x.what(), x.reason());
      } else if (x.http_status() >= 500 || x.http_status() == 429) {
        why = fmt::format("failed: {}", x.what());
      } else {
        throw;
      }
    } catch (const TransportError& x) {
      why = fmt::format("was cut: {}", x.what());
    }
  } else if (m_watch_events[i] == 0) {
    why = "ended without an event";
  }
  if (!why.empty()) {
    const auto wait = m_backoff[i].next();
    r.at = now + wait;
    ++m_stats.waits;
    log::debug("watch of {} {}; watching again in {} ms", path, why, wait.count());
  }
  m_restarts.push_back(r);
}

void Reflectors::restart_due(TimePoint now) {
  for (size_t k = 0; k < m_restarts.size();) {
    if (m_restarts[k].at > now) {
      ++k;
      continue;
    }
    const Restart r = m_restarts[k];
    m_restarts.erase(m_restarts.begin() + static_cast<std::ptrdiff_t>(k));
    if (r.relist && !relist(r.collection)) continue;
    open_watch(r.collection);
  }
}

size_t Reflectors::run_for(std::chrono::milliseconds d) {
  const auto deadline = now() + d;
  for (auto t = now(); t < deadline; t = now()) {
    restart_due(t);
    auto until = deadline;
    for (const auto& r : m_restarts) until = std::min(until, r.at);
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - t);
    if (m_set->size() == 0) {
      // Every watch waits to start again: nothing to move on meanwhile.
      if (left.count() > 0) {
        if (m_timing.sleep)
          m_timing.sleep(left);
        else
          std::this_thread::sleep_for(left);
      }
      continue;
    }
    for (const auto& e : m_set->run(std::max(left, std::chrono::milliseconds(1)))) ended(e, now());
  }
  const size_t changed = m_changed;
  m_changed = 0;
  return changed;
}

}  // namespace trainctl::kube
