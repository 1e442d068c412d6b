#include "kube/reflector.h"

#include <thread>

#include "core/errors.h"
#include "core/log.h"
#include "kube/list_reads.h"
#include "kube/stream_set.h"
#include "kube/watch.h"

namespace trainctl::kube {

Reflectors::Reflectors(Client& client, std::vector<Collection> collections, std::chrono::seconds watch_timeout)
    : m_client(client),
      m_collections(std::move(collections)),
      m_versions(m_collections.size()),
      m_watch_timeout(watch_timeout) {}

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
  stream_all(m_client, reads, kPageSize, [this] {
    for (auto& c : m_collections)
      if (c.on_reset) c.on_reset();
  });
  m_stats.lists += m_collections.size();
  m_set = m_client.stream_set();
  for (size_t i = 0; i < m_collections.size(); ++i) open_watch(i);
}

void Reflectors::relist(size_t i) {
  auto& c = m_collections[i];
  if (c.on_reset) c.on_reset();
  stream_all(m_client, {listing(i)}, kPageSize, c.on_reset);
  ++m_stats.lists;
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
  }
  return true;
}

size_t Reflectors::run_for(std::chrono::milliseconds d) {
  using steady = std::chrono::steady_clock;
  const auto deadline = steady::now() + d;
  for (auto now = steady::now(); now < deadline; now = steady::now()) {
    for (const auto& ended : m_set->run(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now))) {
      size_t i = 0;
      for (auto it = m_open.begin(); it != m_open.end(); ++it)
        if (it->first == ended.id) {
          i = it->second;
          m_open.erase(it);
          break;
        }
      const std::string& path = m_collections[i].path;
      if (ended.error) {
        try {
          std::rethrow_exception(ended.error);
        } catch (const ApiError& e) {
          if (is_expired(e)) {
            log::debug("watch of {}: {} (410 {}); listing again", path, e.what(), e.reason());
            relist(i);
          } else if (e.http_status() >= 500 || e.http_status() == 429) {
            log::debug("watch of {} failed: {}; watching again in 1s", path, e.what());
            std::this_thread::sleep_for(std::chrono::seconds(1));
          } else {
            throw;
          }
        } catch (const TransportError& e) {
          log::debug("watch of {} was cut: {}; watching again in 1s", path, e.what());
          std::this_thread::sleep_for(std::chrono::seconds(1));
        }
      }
      open_watch(i);
    }
  }
  const size_t changed = m_changed;
  m_changed = 0;
  return changed;
}

}  // namespace trainctl::kube
