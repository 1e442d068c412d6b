// The wait before a watch is opened again or a collection listed again, as client-go's
// reflector spaces them (kubernetes/client-go@v0.36.3 tools/cache/reflector.go: the
// delayHandler built from wait.Backoff{Duration: 800ms, Factor: 2, Jitter: 1.0, Cap: 30s} by
// Backoff.DelayWithReset(clock, 2 min); k8s.io/apimachinery@v0.36.3 pkg/util/wait/backoff.go
// delay() and backoffManager.Step). Each wait is the current duration plus up to `jitter`
// times it at random; the duration then doubles up to the cap. The durations start over
// when two minutes have passed since they last did (a stream that ran for minutes), and, as
// trainctl adds, after a watch that delivered events (it was healthy).
//
// A watch that a proxy or load balancer closes at once, with no event, is thus opened again
// after 0.8-1.6 s, then 1.6-3.2 s, ... up to 30-60 s: about 0.2 requests a second, not
// thousands.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <random>

namespace trainctl::kube {

struct RestartBackoffParams {
  std::chrono::milliseconds initial{800};
  std::chrono::milliseconds cap{30000};
  double factor = 2.0;
  double jitter = 1.0;  // up to this times the duration is added at random
  std::chrono::milliseconds reset_after{120000};
};

class RestartBackoff {
 public:
  using Clock = std::chrono::steady_clock;
  using Params = RestartBackoffParams;

  // `now` defaults to the steady clock; tests pass their own clock and seed.
  explicit RestartBackoff(Params params = {}, std::function<Clock::time_point()> now = nullptr,
                          std::uint64_t seed = std::random_device{}());

  // The wait before the next restart (advances the durations).
  std::chrono::milliseconds next();
  // The last watch delivered events: the next restart waits the initial duration again.
  void reset();

 private:
  Clock::time_point now() const { return m_now ? m_now() : Clock::now(); }

  Params m_params;
  std::function<Clock::time_point()> m_now;
  std::chrono::milliseconds m_duration;
  Clock::time_point m_last_start;
  std::mt19937_64 m_random;
};

}  // namespace trainctl::kube
