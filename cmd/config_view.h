// trainctl config view: the settings trainctl uses from the config file (docs/config.md),
// with where they came from and the namespace commands act in.
#pragma once

#include <string>

#include "cmd/run.h"

namespace trainctl {

struct ConfigViewOptions {
  // -o: the formats it prints, the first the default.
  static constexpr print::OutputFormat kFormats[] = {print::OutputFormat::Yaml, print::OutputFormat::Json};

  std::string output;  // "" (yaml), yaml or json
};

void run_config_view(const ConfigViewOptions& o, Factory& f);
// Registers `config` and its `view` on `root`; `run` is what view does once parsed.
void setup_config(CLI::App& root, Factory& f, RunFn<ConfigViewOptions> run = run_config_view);

}  // namespace trainctl
