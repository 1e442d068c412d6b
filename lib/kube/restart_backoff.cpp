#include "kube/restart_backoff.h"

#include <algorithm>

namespace trainctl::kube {

RestartBackoff::RestartBackoff(Params params, std::function<Clock::time_point()> now, std::uint64_t seed)
    : m_params(params), m_now(std::move(now)), m_duration(params.initial), m_random(seed) {
  m_last_start = this->now();
}

std::chrono::milliseconds RestartBackoff::next() {
  // backoffManager.Step: every reset_after the durations start over.
  const auto t = now();
  if (t - m_last_start > m_params.reset_after) {
    m_duration = m_params.initial;
    m_last_start = t;
  }
  // delay(): this step waits the duration plus jitter; the next one is factor times longer,
  // at most the cap.
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const auto wait =
      m_duration + std::chrono::milliseconds(static_cast<long long>(unit(m_random) * m_params.jitter *
                                                                    static_cast<double>(m_duration.count())));
  const auto grown = std::chrono::milliseconds(
      static_cast<long long>(static_cast<double>(m_duration.count()) * m_params.factor));
  m_duration = std::min(grown, m_params.cap);
  return wait;
}

void RestartBackoff::reset() {
  m_duration = m_params.initial;
  m_last_start = now();
}

}  // namespace trainctl::kube
