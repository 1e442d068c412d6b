// trainctl logs: Print the logs of a training job
#include <CLI/CLI.hpp>

#include "cmd/commands.h"
#include "cmd/run.h"

namespace trainctl {

void setup_logs(CLI::App& root, Factory& f) {
  auto* cmd = root.add_subcommand("logs", "Print the logs of a training job");
  cmd->alias("log");
  set_examples(cmd, "  trainctl logs pytorch-dist\n  trainctl logs pytorch-dist -i pytorch-dist-worker-0 -t 5\n  trainctl logs pytorch-dist -f\n");
  bind_run(cmd, f, [] { throw NotImplementedError("'trainctl logs'"); });
}

}  // namespace trainctl
