#include "jobs/logs/log_resume.h"

namespace trainctl::jobs {

std::optional<std::string_view> LogResume::accept(std::string_view line) {
  const size_t space = line.find(' ');
  const auto t = parse_time(line.substr(0, space));
  if (!t) return line;
  if (m_last && *t < *m_last) return std::nullopt;
  if (m_last && *t == *m_last && m_skip > 0) {
    --m_skip;
    return std::nullopt;
  }
  if (m_last && *t == *m_last) {
    ++m_seen_at_last;
  } else {
    m_last = t;
    m_seen_at_last = 1;
  }
  m_skip = 0;
  if (m_keep) return line;
  return space == std::string_view::npos ? std::string_view() : line.substr(space + 1);
}

}  // namespace trainctl::jobs
