// trainctl data list: the bound PVCs a job can mount with --data PVC:/path.
#pragma once

#include <string>
#include <vector>

#include "cmd/run.h"

namespace trainctl {

struct DataListOptions {
  // -o: the formats it prints, the first the default.
  static constexpr print::OutputFormat kFormats[] = {print::OutputFormat::Wide, print::OutputFormat::Json, print::OutputFormat::Yaml};

  bool all_namespaces = false;
  std::string output;
};

void run_data_list(const DataListOptions& o, Factory& f);
// Registers the command on `data`; `run` is what it does once parsed (tests pass their own).
void setup_data_list(CLI::App& data, Factory& f, RunFn<DataListOptions> run = run_data_list);

}  // namespace trainctl
