// A log followed with timestamps=true and resumed after a cut from the second of the last
// line seen (sinceTime has whole seconds): the lines of that second come again and are
// dropped, as are older ones. Shared by logs -f (pod_logs.cpp) and logs --all (log_merge.h).
#pragma once

#include <optional>
#include <string_view>

#include "jobs/time.h"

namespace trainctl::jobs {

class LogResume {
 public:
  explicit LogResume(bool keep_timestamps) : m_keep(keep_timestamps) {}

  // The text of `line` to write (its timestamp removed unless kept), or nullopt when the
  // line was written before the cut.
  std::optional<std::string_view> accept(std::string_view line);
  // Before the next stream: the lines of the last second written are expected again.
  void resume() { m_skip = m_seen_at_last; }
  // The time of the last line written, for the next stream's sinceTime.
  const std::optional<TimePoint>& last() const { return m_last; }

 private:
  bool m_keep;
  std::optional<TimePoint> m_last;
  long long m_seen_at_last = 0;
  long long m_skip = 0;
};

}  // namespace trainctl::jobs
