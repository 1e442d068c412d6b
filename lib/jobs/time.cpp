#include "jobs/time.h"

#include <ctime>

namespace trainctl::jobs {

std::string format_local(TimePoint t) {
  std::time_t tt = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  localtime_r(&tt, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
  return buf;
}

std::chrono::seconds seconds_between(TimePoint from, TimePoint to) {
  return std::chrono::floor<std::chrono::seconds>(to - from);
}

}  // namespace trainctl::jobs
