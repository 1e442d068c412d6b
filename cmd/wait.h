// trainctl wait: block until a job runs or finishes, for scripts and CI; the exit code says how
// it ended (docs/exit-codes.md) and -o json prints one object saying it.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "cmd/run.h"

namespace trainctl {

struct WaitOptions {
  static constexpr print::OutputFormat kFormats[] = {print::OutputFormat::Table, print::OutputFormat::Json};

  std::string name;
  std::string type;
  std::string for_ = "finished";  // running | finished
  std::string timeout;            // "" = no timeout
  std::string output;
  // From the flags, by complete_wait before run_wait (kubectl's Complete/Validate/Run):
  print::OutputFormat format = kFormats[0];
  std::optional<std::chrono::seconds> timeout_seconds;  // --timeout; none: wait as long as it takes
  std::vector<const jobs::JobKind*> kinds;              // the kinds -T leaves
};

// Validates the flags and fills what comes from them; UsageError for a bad -o, --for,
// --timeout or -T.
void complete_wait(WaitOptions& o);
// Runs the command on completed options.
void run_wait(const WaitOptions& o, Factory& f);
void setup_wait(CLI::App& root, Factory& f, RunFn<WaitOptions> run = run_wait);

}  // namespace trainctl
