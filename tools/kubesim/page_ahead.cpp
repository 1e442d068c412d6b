#include "kubesim/page_ahead.h"

#include <system_error>
#include <utility>

namespace kubesim {

PageAhead::~PageAhead() {
  for (auto& e : m_entries)
    if (e.answer.valid()) e.answer.wait();
}

void PageAhead::start(const std::string& key, Compute compute) {
  std::shared_future<Answer> answer;
  try {
    answer = std::async(std::launch::async, std::move(compute)).share();
  } catch (const std::system_error&) {
    return;  // no thread to spare: the request for the page computes it
  }
  {
    std::lock_guard lock(m_mu);
    ++m_stats.computed;
  }
  push(Entry{key, std::move(answer), 0});
}

void PageAhead::skip(const std::string& key, uint64_t store_rv) {
  {
    std::lock_guard lock(m_mu);
    ++m_stats.skipped;
  }
  push(Entry{key, {}, store_rv});
}

void PageAhead::push(Entry entry) {
  std::deque<Entry> dropped;  // waited for outside the lock
  {
    std::lock_guard lock(m_mu);
    for (auto it = m_entries.begin(); it != m_entries.end();) {
      if (it->key == entry.key) {
        dropped.push_back(std::move(*it));
        it = m_entries.erase(it);
      } else {
        ++it;
      }
    }
    m_entries.push_back(std::move(entry));
    while (m_entries.size() > kKeep) {
      dropped.push_back(std::move(m_entries.front()));
      m_entries.pop_front();
    }
    for (const auto& e : dropped)
      if (e.answer.valid()) ++m_stats.unasked;
  }
  for (auto& e : dropped)
    if (e.answer.valid()) e.answer.wait();
}

std::optional<PageAhead::Answer> PageAhead::take(const std::string& key, uint64_t store_rv, bool* written_since) {
  if (written_since) *written_since = false;
  Entry entry;
  {
    std::lock_guard lock(m_mu);
    for (auto it = m_entries.begin(); it != m_entries.end(); ++it)
      if (it->key == key) {
        entry = std::move(*it);
        m_entries.erase(it);
        break;
      }
  }
  if (entry.key.empty()) return std::nullopt;
  if (!entry.answer.valid()) {
    if (written_since) *written_since = entry.skipped_at != store_rv;
    return std::nullopt;
  }
  std::optional<Answer> a;
  try {
    a = entry.answer.get();
  } catch (...) {
    // The request computes it again and answers the error itself.
  }
  const bool fresh = a && a->store_rv == store_rv;
  if (written_since) *written_since = a && !fresh;
  std::lock_guard lock(m_mu);
  ++(fresh ? m_stats.served : m_stats.stale);
  if (!fresh) return std::nullopt;
  return a;
}

PageAhead::Stats PageAhead::stats() const {
  std::lock_guard lock(m_mu);
  return m_stats;
}

}  // namespace kubesim
