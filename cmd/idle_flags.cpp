#include "cmd/idle_flags.h"

#include <CLI/CLI.hpp>

#include "core/duration.h"
#include "core/errors.h"

namespace trainctl {

void add_idle_flags(CLI::App* cmd, IdleFlags& flags) {
  cmd->add_option("--idle-window", flags.window, "How long a GPU must have been idle")->capture_default_str();
  cmd->add_option("--idle-threshold", flags.threshold, "Utilisation (%) under which a GPU is idle")
      ->capture_default_str();
}

metrics::IdleRule idle_rule(const IdleFlags& flags) {
  metrics::IdleRule rule;
  std::chrono::nanoseconds window{};
  try {
    window = parse_duration(flags.window);
  } catch (const Error&) {
    throw UsageError("--idle-window " + flags.window + ": not a duration; use e.g. 10m or 1h");
  }
  if (window < std::chrono::minutes(1)) throw UsageError("--idle-window must be at least 1m");
  if (flags.threshold <= 0 || flags.threshold > 100)
    throw UsageError("--idle-threshold must be a percentage above 0 and at most 100");
  rule.window = std::chrono::duration_cast<std::chrono::seconds>(window);
  rule.threshold = flags.threshold;
  return rule;
}

}  // namespace trainctl
