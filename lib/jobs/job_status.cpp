#include "jobs/job_status.h"

#include <array>

namespace trainctl::jobs {

const char* status_name(JobStatus status) {
  // In the order of the enum.
  static constexpr std::array<const char*, 8> names = {
      "PENDING", "QUEUING", "RUNNING", "SUCCEEDED", "FAILED", "TERMINATING", "UNKNOWN", "SUSPENDED",
  };
  const auto i = static_cast<size_t>(status);
  return i < names.size() ? names[i] : "UNKNOWN";
}

bool is_finished(JobStatus status) { return status == JobStatus::Succeeded || status == JobStatus::Failed; }

}  // namespace trainctl::jobs
