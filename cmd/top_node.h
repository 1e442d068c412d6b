// trainctl top node: GPU capacity and allocation per node, with the cluster's totals.
#pragma once

#include <string>
#include <vector>

#include "cmd/idle_flags.h"
#include "cmd/run.h"

namespace trainctl {

struct TopNodeOptions {
  // -o: the formats it prints, the first the default.
  static constexpr print::OutputFormat kFormats[] = {print::OutputFormat::Wide, print::OutputFormat::Json, print::OutputFormat::Yaml};

  std::vector<std::string> nodes;  // names to show; empty = all
  bool details = false;
  std::string output;
  IdleFlags idle_flags;
  int refresh = 0;  // -r SECONDS: kept current from a watch; 0: once
};

void run_top_node(const TopNodeOptions& o, Factory& f);
// Registers the command on `top`; `run` is what it does once parsed (tests pass their own).
void setup_top_node(CLI::App& top, Factory& f, RunFn<TopNodeOptions> run = run_top_node);

}  // namespace trainctl
