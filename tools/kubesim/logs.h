// kubesim's container log store: per (namespace, pod, container) an append-only list of
// timestamped lines, as a kubelet keeps them. Writers (the simulated kubelets) append and
// close; readers (pods/log) take snapshots or follow until the container's log is closed.
// Thread-safe.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

namespace kubesim {

struct LogLine {
  std::chrono::system_clock::time_point time;
  std::string text;  // one line, without the trailing newline
};

class LogStore {
public:
  LogStore();
  ~LogStore();
  LogStore(const LogStore&) = delete;
  LogStore& operator=(const LogStore&) = delete;

  // Appends one line (a trailing '\n' in text is dropped). Re-opens a closed log (a
  // restarted container writes again); use reset() to start a fresh log instead.
  void append(const std::string& ns, const std::string& pod, const std::string& container,
              const std::string& text,
              std::chrono::system_clock::time_point time = std::chrono::system_clock::now());
  // The container terminated: followers receive the remaining lines and then return.
  void close(const std::string& ns, const std::string& pod, const std::string& container);
  // Drops the container's current log, keeping it as the "previous" log (?previous=true).
  void reset(const std::string& ns, const std::string& pod, const std::string& container);
  // Forgets every log of the pod (pod deleted); followers return.
  void remove_pod(const std::string& ns, const std::string& pod);

  bool exists(const std::string& ns, const std::string& pod, const std::string& container) const;
  bool closed(const std::string& ns, const std::string& pod, const std::string& container) const;
  // Snapshot of all lines so far (empty when the container has no log).
  std::vector<LogLine> lines(const std::string& ns, const std::string& pod,
                             const std::string& container) const;
  std::vector<LogLine> previous_lines(const std::string& ns, const std::string& pod,
                                      const std::string& container) const;

  // Calls on_line for every line with index >= from, then blocks for new lines until the
  // log is closed or removed, cancel() returns true, or on_line returns false. Does not hold
  // the store lock while calling on_line. Returns the index after the last line delivered.
  // cancel is called each time every line so far has been delivered, before waiting (a
  // caller that buffers flushes there), and at least every poll interval (default 200 ms).
  size_t follow(const std::string& ns, const std::string& pod, const std::string& container,
                size_t from, const std::function<bool(const LogLine&)>& on_line,
                const std::function<bool()>& cancel = nullptr,
                std::chrono::milliseconds poll = std::chrono::milliseconds(200)) const;

  // Number of containers with a log (for tests and stats).
  size_t size() const;

private:
  struct Log {
    std::vector<LogLine> lines;
    std::vector<LogLine> previous;
    bool closed = false;
    bool removed = false;
  };
  using Key = std::tuple<std::string, std::string, std::string>;
  std::shared_ptr<Log> find(const Key& k) const;

  mutable std::mutex m_mutex;
  mutable std::condition_variable m_cv;
  std::map<Key, std::shared_ptr<Log>> m_logs;
};

}  // namespace kubesim
