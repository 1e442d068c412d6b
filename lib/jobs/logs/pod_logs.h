// Reading a pod's log: once, or following it (-f) through container restarts and cut
// connections until the pod ends.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <ostream>
#include <string>

#include "kube/client.h"

namespace trainctl::jobs {

struct LogOptions {
  std::string ns;
  std::string pod;
  std::string container;          // "" = the server's default (single container)
  std::optional<long long> tail;  // tailLines
  std::optional<long long> since_seconds;
  std::string since_time;   // RFC 3339
  bool timestamps = false;  // the user asked for timestamps
  bool previous = false;    // the log of the container before its last restart
};

// The pods/log path with its query (follow and timestamps as given; the window - tail,
// since - only when `window`; `since_time` overrides the user's).
std::string log_path(const LogOptions& o, bool follow, bool timestamps, bool window,
                     const std::string& since_time);

// Writes the log once (no follow) to `out`.
void read_logs(kube::Client& client, const LogOptions& o, std::ostream& out);

struct FollowSettings {
  std::chrono::milliseconds reconnect_delay{1000};
  int max_failures = 10;                                 // consecutive failed connections before giving up
  std::function<void(std::chrono::milliseconds)> sleep;  // default: std::this_thread::sleep_for
};

// Follows the log until the pod ends, and returns its final phase ("Succeeded", "Failed"),
// or "" when the pod was deleted. Timestamps are always requested: after a cut or a
// container restart the stream resumes with sinceTime = the last line's second, and lines
// already written are dropped, so nothing is lost or doubled. Timestamps are stripped when
// the user did not ask for them.
std::string follow_logs(kube::Client& client, const LogOptions& o, std::ostream& out,
                        const FollowSettings& s = {});

}  // namespace trainctl::jobs
