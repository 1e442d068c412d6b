// trainctl runtime list: the Kubeflow Trainer v2 runtimes a TrainJob can name with
// `submit trainjob --runtime`: the ClusterTrainingRuntimes and the namespace's TrainingRuntimes.
#pragma once

#include <string>

#include "cmd/run.h"

namespace trainctl {

struct RuntimeListOptions {
  static constexpr print::OutputFormat kFormats[] = {print::OutputFormat::Table, print::OutputFormat::Wide,
                                                     print::OutputFormat::Json, print::OutputFormat::Yaml};
  std::string output;
  bool all = false;  // --all: also the runtimes of one job (TrainingRuntime::of_one_job)
};

void run_runtime_list(const RuntimeListOptions& o, Factory& f);
// Registers `list` on `runtime`; `run` is what it does once parsed (tests pass their own).
void setup_runtime_list(CLI::App& runtime, Factory& f, RunFn<RuntimeListOptions> run = run_runtime_list);

}  // namespace trainctl
