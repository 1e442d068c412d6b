// When and how long to wait before sending a request again: exponential backoff with
// jitter, Retry-After honoured, bounded by a number of retries and a total waiting time.
#pragma once

#include <chrono>
#include <optional>
#include <random>

namespace trainctl::kube {

struct RetryLimits {
  int max_retries = 5;
  std::chrono::milliseconds max_retry_time{30000};  // total waiting between attempts
  std::chrono::milliseconds initial_backoff{200};
};

// 429 and the 5xx answers a proxy or an overloaded API server gives for transient trouble.
bool is_retryable_status(long http_status);

class Backoff {
public:
  explicit Backoff(RetryLimits limits);

  // The wait before the next attempt, or nullopt when the retries are used up (count or
  // time). retry_after_seconds >= 0 (from a Retry-After header or Status details) is
  // honoured as the wait; otherwise initial_backoff * 2^retries, capped at 30 s, plus up
  // to 25 % random jitter. A Retry-After longer than the time left means giving up now.
  std::optional<std::chrono::milliseconds> next(int retry_after_seconds = -1);

  int retries() const { return m_retries; }
  const RetryLimits& limits() const { return m_limits; }

private:
  RetryLimits m_limits;
  int m_retries = 0;
  std::chrono::milliseconds m_waited{0};
  std::minstd_rand m_random;
};

}  // namespace trainctl::kube
