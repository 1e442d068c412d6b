// -r/--refresh and -w/--watch: a view kept current from one list and then watches
// (kube/reflector.h), printed again every interval until Ctrl-C. On a terminal the screen is
// cleared before each view; otherwise a view is printed after a blank line. Either way a view
// is printed only when its text changed, so that a log of it shows each state once.
#pragma once

#include <chrono>
#include <functional>
#include <ostream>

#include "cmd/factory.h"
#include "cmd/cli_fwd.h"
#include "kube/reflector.h"

namespace trainctl {

// -r, --refresh[=SECONDS] (default 2 when given alone; 0: once).
void add_refresh_option(CLI::App* cmd, int& seconds);

// Prints `render` now, then after every interval in which the reflectors saw a change (or
// every interval when `always`, for views with numbers of their own, such as GPU metrics).
// Returns only by an exception (Ctrl-C ends the process).
void run_live(Factory& f, kube::Reflectors& reflectors, std::chrono::seconds interval, bool always,
              const std::function<void(std::ostream&)>& render);

}  // namespace trainctl
