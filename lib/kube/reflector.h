// Live views that cost what changes, not the cluster (client-go tools/cache/reflector.go
// ListAndWatch): each collection is listed once, page by page, all in one round; then it is
// watched from the list's resourceVersion with bookmarks, so that a refresh handles only the
// events since the last one. A watch the server ends after events is opened again at once from
// the last version seen; one that ended without an event (a proxy closing idle streams), a cut
// connection or a 429/5xx wait as client-go's reflector waits (kube/restart_backoff.h) before
// the collection is watched again; one whose version is gone (410 Expired) waits the same, then
// lists that collection again and watches from the new list. A collection whose list answers
// 404 (a kind whose CRD the cluster lacks) is not watched, as list skips it. The watches of
// every collection move together on the calling thread (kube/stream_set.h).
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kube/client.h"
#include "kube/list_reads.h"
#include "kube/page_stream.h"
#include "kube/query.h"
#include "kube/restart_backoff.h"
#include "kube/stream_set.h"

namespace trainctl::kube {

// One collection and what to do with its objects.
struct Collection {
  std::string path;  // Resource::collection_path(ns)
  ListQuery query;   // selectors; limit and continue are set by the list
  std::function<void()> on_reset;  // a list begins: forget this collection's objects
  ItemHandler on_put;              // a listed object, or an ADDED or MODIFIED one
  ItemHandler on_delete;           // a DELETED one (the object as it was last)
  // The fields the handlers read (StreamRead::fields): listed objects are built with only
  // these; watch events, a few at a time, are built whole. Must outlive the Reflectors.
  const FieldSet* fields = nullptr;
};

// How the reflectors tell time and wait; tests pass their own.
struct ReflectorTiming {
  std::function<std::chrono::steady_clock::time_point()> now;  // default: the steady clock
  std::function<void(std::chrono::milliseconds)> sleep;        // default: sleep_for
  RestartBackoffParams backoff;
};

class Reflectors {
 public:
  // What the live view has cost so far.
  struct Stats {
    size_t lists = 0;    // lists of a collection (the first ones and those after a 410)
    size_t watches = 0;  // watch requests opened
    size_t waits = 0;    // restarts that waited (kube/restart_backoff.h)
    size_t events = 0;   // ADDED, MODIFIED and DELETED events handled
  };

  using Timing = ReflectorTiming;

  Reflectors(Client& client, std::vector<Collection> collections,
             std::chrono::seconds watch_timeout = std::chrono::seconds(300), Timing timing = {});
  ~Reflectors();

  // Lists every collection (one round) and opens their watches.
  void start();
  // Moves the watches on for `d`. Returns how many events changed something meanwhile.
  size_t run_for(std::chrono::milliseconds d);
  const Stats& stats() const { return m_stats; }

 private:
  using TimePoint = std::chrono::steady_clock::time_point;
  // A collection whose watch ended, to be watched again (after listing it again) at `at`.
  struct Restart {
    size_t collection = 0;
    TimePoint at;
    bool relist = false;
  };
  StreamRead listing(size_t i);  // the list read of collection i
  // Whether collection i is served, given whether its list answered 404 (said in the log).
  bool served(size_t i, bool missing) const;
  bool relist(size_t i);  // false: no longer served (not watched again)
  void open_watch(size_t i);
  bool on_lines(size_t i, std::string_view lines);
  void ended(const StreamSet::Ended& e, TimePoint now);
  void restart_due(TimePoint now);
  TimePoint now() const { return m_timing.now ? m_timing.now() : std::chrono::steady_clock::now(); }

  Client& m_client;
  std::vector<Collection> m_collections;
  std::vector<std::string> m_versions;  // per collection: the last resourceVersion seen
  std::chrono::seconds m_watch_timeout;
  std::unique_ptr<StreamSet> m_set;
  std::vector<std::pair<uint64_t, size_t>> m_open;  // stream id -> collection
  std::vector<size_t> m_watch_events;               // per collection: events of its current watch
  std::vector<RestartBackoff> m_backoff;            // per collection
  std::vector<Restart> m_restarts;
  Timing m_timing;
  size_t m_changed = 0;
  Stats m_stats;
};

}  // namespace trainctl::kube
