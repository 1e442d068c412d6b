#include "cmd/live_view.h"

#include <CLI/CLI.hpp>
#include <sstream>

#include "core/errors.h"
#include "core/log.h"

namespace trainctl {

void add_refresh_option(CLI::App* cmd, int& seconds) {
  cmd->add_option("-r,--refresh", seconds,
                  "Show it again every SECONDS (2 when given alone) from a watch, until Ctrl-C")
      ->expected(0, 1)
      ->default_str("2")
      ->check(CLI::Range(0, 3600));
}

void run_live(Factory& f, kube::Reflectors& reflectors, std::chrono::seconds interval, bool always,
              const std::function<void(std::ostream&)>& render) {
  auto& out = f.io().out();
  const bool tty = f.io().is_tty();
  std::string last;
  for (bool first = true;; first = false) {
    std::ostringstream view;
    render(view);
    if (first || view.str() != last) {
      if (tty) out << "\x1b[H\x1b[2J";
      else if (!first) out << "\n";
      out << view.str();
      out.flush();
      last = view.str();
    }
    for (;;) {
      const size_t changed = reflectors.run_for(interval);
      const auto& s = reflectors.stats();
      log::debug("{} changes in {}s; so far {} lists, {} watches, {} events", changed, interval.count(), s.lists,
                 s.watches, s.events);
      if (changed > 0 || always) break;
    }
  }
}

}  // namespace trainctl
