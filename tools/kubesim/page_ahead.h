// The next page of a paged list, computed while the client reads this one. kube-apiserver
// builds each page when it is asked for; kubesim answers every request on one thread, so a
// client walking a long list waits, page after page, for kubesim to select, encode and gzip
// the next one. Once a page with a continue token is answered, its successor is computed on
// another thread (selected, joined and, for a client that takes gzip, compressed whole), and
// the request for it is answered from there if nothing was written to the store since: the
// answer is the one the request would have had (same items, metadata and continue token),
// only ready sooner. On a busy store that page is thrown away, so a list whose store was
// written between two of its pages has its next page computed when asked for, not ahead,
// until a page finds the store as the last one left it. See docs/performance.md "Pages
// computed ahead".
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <future>
#include <mutex>
#include <optional>
#include <string>

namespace kubesim {

class PageAhead {
 public:
  struct Answer {
    std::string body;
    bool gzip = false;           // body is gzip-compressed
    std::string continue_token;  // of the page after it ("" on the last)
    uint64_t store_rv = 0;       // the store's resourceVersion it was computed at (0: written meanwhile)
  };
  using Compute = std::function<Answer()>;

  // What the pages computed ahead came to (GET /kubesim/page-ahead).
  struct Stats {
    uint64_t computed = 0;  // pages computed ahead
    uint64_t served = 0;    // answered from there
    uint64_t stale = 0;     // thrown away when asked for: the store was written since (or computing failed)
    uint64_t unasked = 0;   // thrown away unasked: pushed out by newer pages, or computed again
    uint64_t skipped = 0;   // not computed ahead: the store was written between the list's last two pages
  };

  PageAhead() = default;
  PageAhead(const PageAhead&) = delete;
  PageAhead& operator=(const PageAhead&) = delete;
  ~PageAhead();  // waits for the pages still being computed

  // Starts computing the answer for key (everything it depends on but the store's content:
  // resource, namespace, selectors, limit, continue token, encoding) on another thread.
  void start(const std::string& key, Compute compute);
  // Notes that the page for key is not computed ahead; `store_rv`: the store's
  // resourceVersion as the page before it was answered.
  void skip(const std::string& key, uint64_t store_rv);
  // The answer for key, waiting for it while it is computed, if it was computed at store_rv
  // (the store's resourceVersion now); nullopt otherwise, or when computing it failed. Either
  // way the entry is gone. `written_since` (when given) tells whether the store was written
  // since the page before it was answered: a page computed or skipped at another
  // resourceVersion.
  std::optional<Answer> take(const std::string& key, uint64_t store_rv, bool* written_since = nullptr);

  Stats stats() const;

 private:
  struct Entry {
    std::string key;
    std::shared_future<Answer> answer;  // not valid for a page skipped
    uint64_t skipped_at = 0;            // a page skipped: the store's resourceVersion then
  };
  void push(Entry e);  // the newest kKeep entries stay; the others are waited for and counted
  static constexpr size_t kKeep = 8;  // pages kept for lists walked at the same time
  mutable std::mutex m_mu;
  std::deque<Entry> m_entries;  // oldest first
  Stats m_stats;
};

}  // namespace kubesim
