#include "kubesim/logs.h"

#include <algorithm>

namespace kubesim {

LogStore::LogStore() = default;
LogStore::~LogStore() = default;

std::shared_ptr<LogStore::Log> LogStore::find(const Key& k) const {
  auto it = m_logs.find(k);
  return it == m_logs.end() ? nullptr : it->second;
}

void LogStore::append(const std::string& ns, const std::string& pod, const std::string& container,
                      const std::string& text, std::chrono::system_clock::time_point time) {
  std::string line = text;
  if (!line.empty() && line.back() == '\n') line.pop_back();
  {
    std::lock_guard lock(m_mutex);
    auto& log = m_logs[Key{ns, pod, container}];
    if (!log) log = std::make_shared<Log>();
    log->closed = false;
    log->lines.push_back(LogLine{time, std::move(line)});
  }
  m_cv.notify_all();
}

void LogStore::close(const std::string& ns, const std::string& pod, const std::string& container) {
  {
    std::lock_guard lock(m_mutex);
    auto& log = m_logs[Key{ns, pod, container}];
    if (!log) log = std::make_shared<Log>();
    log->closed = true;
  }
  m_cv.notify_all();
}

void LogStore::reset(const std::string& ns, const std::string& pod, const std::string& container) {
  {
    std::lock_guard lock(m_mutex);
    auto& log = m_logs[Key{ns, pod, container}];
    auto fresh = std::make_shared<Log>();
    if (log) {
      fresh->previous = std::move(log->lines);
      log->closed = true;  // followers of the old log end
      log->lines.clear();
    }
    log = fresh;
  }
  m_cv.notify_all();
}

void LogStore::remove_pod(const std::string& ns, const std::string& pod) {
  {
    std::lock_guard lock(m_mutex);
    for (auto it = m_logs.lower_bound(Key{ns, pod, ""}); it != m_logs.end();) {
      if (std::get<0>(it->first) != ns || std::get<1>(it->first) != pod) break;
      it->second->removed = true;
      it->second->closed = true;
      it = m_logs.erase(it);
    }
  }
  m_cv.notify_all();
}

bool LogStore::exists(const std::string& ns, const std::string& pod, const std::string& container) const {
  std::lock_guard lock(m_mutex);
  return find(Key{ns, pod, container}) != nullptr;
}

bool LogStore::closed(const std::string& ns, const std::string& pod, const std::string& container) const {
  std::lock_guard lock(m_mutex);
  auto log = find(Key{ns, pod, container});
  return !log || log->closed;
}

std::vector<LogLine> LogStore::lines(const std::string& ns, const std::string& pod,
                                     const std::string& container) const {
  std::lock_guard lock(m_mutex);
  auto log = find(Key{ns, pod, container});
  return log ? log->lines : std::vector<LogLine>{};
}

std::vector<LogLine> LogStore::previous_lines(const std::string& ns, const std::string& pod,
                                              const std::string& container) const {
  std::lock_guard lock(m_mutex);
  auto log = find(Key{ns, pod, container});
  return log ? log->previous : std::vector<LogLine>{};
}

size_t LogStore::follow(const std::string& ns, const std::string& pod, const std::string& container,
                        size_t from, const std::function<bool(const LogLine&)>& on_line,
                        const std::function<bool()>& cancel, std::chrono::milliseconds poll) const {
  std::unique_lock lock(m_mutex);
  auto log = find(Key{ns, pod, container});
  if (!log) return from;
  size_t next = from;
  for (;;) {
    while (next < log->lines.size()) {
      // At most kBatch lines are copied at a time: a long log starts flowing at once.
      constexpr size_t kBatch = 4096;
      const size_t end = std::min(log->lines.size(), next + kBatch);
      std::vector<LogLine> batch(log->lines.begin() + static_cast<std::ptrdiff_t>(next),
                                 log->lines.begin() + static_cast<std::ptrdiff_t>(end));
      lock.unlock();
      for (const auto& l : batch) {
        if (!on_line(l)) return next;
        ++next;
      }
      lock.lock();
    }
    if (log->closed || log->removed) return next;
    if (cancel && cancel()) return next;
    m_cv.wait_for(lock, poll);
  }
}

size_t LogStore::size() const {
  std::lock_guard lock(m_mutex);
  return m_logs.size();
}

}  // namespace kubesim
