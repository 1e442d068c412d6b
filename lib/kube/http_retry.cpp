#include "kube/http_retry.h"

#include <algorithm>

namespace trainctl::kube {

namespace {
constexpr std::chrono::milliseconds k_max_backoff{30000};
}

bool is_retryable_status(long http_status) {
  return http_status == 429 || http_status == 500 || http_status == 502 || http_status == 503 ||
         http_status == 504;
}

Backoff::Backoff(RetryLimits limits) : m_limits(limits), m_random(std::random_device{}()) {}

std::optional<std::chrono::milliseconds> Backoff::next(int retry_after_seconds) {
  if (m_retries >= m_limits.max_retries) return std::nullopt;
  std::chrono::milliseconds wait;
  if (retry_after_seconds >= 0) {
    wait = std::chrono::seconds(retry_after_seconds);
  } else {
    auto base = m_limits.initial_backoff;
    for (int i = 0; i < m_retries && base < k_max_backoff; ++i) base *= 2;
    base = std::min(base, k_max_backoff);
    std::uniform_int_distribution<long long> jitter(0, base.count() / 4);
    wait = base + std::chrono::milliseconds(jitter(m_random));
  }
  if (m_waited + wait > m_limits.max_retry_time) {
    // Without Retry-After, spend what is left rather than nothing.
    if (retry_after_seconds >= 0 || m_waited >= m_limits.max_retry_time) return std::nullopt;
    wait = m_limits.max_retry_time - m_waited;
  }
  m_waited += wait;
  ++m_retries;
  return wait;
}

}  // namespace trainctl::kube
