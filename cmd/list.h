// trainctl list: the training jobs of every kind in the namespace (or all namespaces),
// whoever submitted them, newest first.
#pragma once

#include <string>
#include <vector>

#include "cmd/idle_flags.h"
#include "cmd/run.h"

namespace trainctl {

struct ListOptions {
  // -o: the formats it prints, the first the default.
  static constexpr print::OutputFormat kFormats[] = {print::OutputFormat::Wide, print::OutputFormat::Json, print::OutputFormat::Yaml, print::OutputFormat::Name};

  bool all_namespaces = false;
  std::string type;
  std::string output;
  bool idle = false;                 // --idle
  bool watch = false;                // -w
  IdleFlags idle_flags;              // --idle-window, --idle-threshold
};

void run_list(const ListOptions& o, Factory& f);
// Registers the command on `root`; `run` is what it does once parsed (tests pass their own).
void setup_list(CLI::App& root, Factory& f, RunFn<ListOptions> run = run_list);

}  // namespace trainctl
