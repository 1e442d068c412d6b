// trainctl wait: block until a job runs or finishes, for scripts and CI; the exit code says how
// it ended (docs/exit-codes.md) and -o json prints one object saying it.
#pragma once

#include <string>

#include "cmd/run.h"

namespace trainctl {

struct WaitOptions {
  static constexpr print::OutputFormat kFormats[] = {print::OutputFormat::Table, print::OutputFormat::Json};

  std::string name;
  std::string type;
  std::string for_ = "finished";  // running | finished
  std::string timeout;            // "" = no timeout
  std::string output;
};

void run_wait(const WaitOptions& o, Factory& f);
void setup_wait(CLI::App& root, Factory& f, RunFn<WaitOptions> run = run_wait);

}  // namespace trainctl
