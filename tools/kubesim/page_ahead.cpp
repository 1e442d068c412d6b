#include "kubesim/page_ahead.h"

#include <system_error>
#include <utility>

namespace kubesim {

PageAhead::~PageAhead() {
  for (auto& e : m_entries) e.answer.wait();
}

void PageAhead::start(const std::string& key, Compute compute) {
  std::shared_future<Answer> answer;
  try {
    answer = std::async(std::launch::async, std::move(compute)).share();
  } catch (const std::system_error&) {
    return;  // no thread to spare: the request for the page computes it
  }
  std::deque<Entry> dropped;  // waited for outside the lock
  {
    std::lock_guard lock(m_mu);
    for (auto it = m_entries.begin(); it != m_entries.end();) {
      if (it->key == key) {
        dropped.push_back(std::move(*it));
        it = m_entries.erase(it);
      } else {
        ++it;
      }
    }
    m_entries.push_back(Entry{key, std::move(answer)});
    while (m_entries.size() > kKeep) {
      dropped.push_back(std::move(m_entries.front()));
      m_entries.pop_front();
    }
  }
  for (auto& e : dropped) e.answer.wait();
}

std::optional<PageAhead::Answer> PageAhead::take(const std::string& key, uint64_t store_rv) {
  std::shared_future<Answer> answer;
  {
    std::lock_guard lock(m_mu);
    for (auto it = m_entries.begin(); it != m_entries.end(); ++it)
      if (it->key == key) {
        answer = std::move(it->answer);
        m_entries.erase(it);
        break;
      }
  }
  if (!answer.valid()) return std::nullopt;
  try {
    Answer a = answer.get();
    if (a.store_rv != store_rv) return std::nullopt;
    return a;
  } catch (...) {
    return std::nullopt;  // the request computes it again and answers the error itself
  }
}

}  // namespace kubesim
