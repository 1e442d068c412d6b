// The next page of a paged list, computed while the client reads this one. kube-apiserver
// builds each page when it is asked for; kubesim answers every request on one thread, so a
// client walking a long list waits, page after page, for kubesim to select, encode and gzip
// the next one. Once a page with a continue token is answered, its successor is computed on
// another thread (selected, joined and, for a client that takes gzip, compressed whole), and
// the request for it is answered from there if nothing was written to the store since: the
// answer is the one the request would have had (same items, metadata and continue token),
// only ready sooner. See docs/performance.md "Pages computed ahead".
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
    uint64_t store_rv = 0;       // the store's resourceVersion it was computed at
  };
  using Compute = std::function<Answer()>;

  PageAhead() = default;
  PageAhead(const PageAhead&) = delete;
  PageAhead& operator=(const PageAhead&) = delete;
  ~PageAhead();  // waits for the pages still being computed

  // Starts computing the answer for key (everything it depends on but the store's content:
  // resource, namespace, selectors, limit, continue token, encoding) on another thread.
  void start(const std::string& key, Compute compute);
  // The answer for key, waiting for it while it is computed, if it was computed at store_rv
  // (the store's resourceVersion now); nullopt otherwise, or when computing it failed. Either
  // way the entry is gone.
  std::optional<Answer> take(const std::string& key, uint64_t store_rv);

 private:
  struct Entry {
    std::string key;
    std::shared_future<Answer> answer;
  };
  static constexpr size_t kKeep = 8;  // pages kept for lists walked at the same time
  std::mutex m_mu;
  std::deque<Entry> m_entries;  // oldest first
};

}  // namespace kubesim
