// trainctl version: version, git commit, build type; -o json for scripts.
#pragma once

#include <string>

#include "cmd/run.h"

namespace trainctl {

struct VersionOptions {
  std::string output;  // "" or json
  bool short_ = false;
};

void run_version(const VersionOptions& o, Factory& f);
// Registers the command on `root`; `run` is what it does once parsed (tests pass their own).
void setup_version(CLI::App& root, Factory& f, RunFn<VersionOptions> run = run_version);

}  // namespace trainctl
