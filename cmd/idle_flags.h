// --idle-window and --idle-threshold: when an allocated GPU counts as idle (metrics/idle.h),
// shared by list --idle, top job and top node.
#pragma once

#include <string>

#include "cmd/cli_fwd.h"
#include "metrics/idle.h"

namespace trainctl {

struct IdleFlags {
  std::string window = "10m";  // --idle-window
  double threshold = 5.0;      // --idle-threshold (percent)
};

void add_idle_flags(CLI::App* cmd, IdleFlags& flags);
// The rule the flags give; UsageError for a window under 1m or a threshold outside (0, 100].
metrics::IdleRule idle_rule(const IdleFlags& flags);

}  // namespace trainctl
