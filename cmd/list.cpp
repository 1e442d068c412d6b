// trainctl list: List training jobs
#include <CLI/CLI.hpp>

#include "cmd/commands.h"
#include "cmd/run.h"

namespace trainctl {

void setup_list(CLI::App& root, Factory& f) {
  auto* cmd = root.add_subcommand("list", "List training jobs");
  cmd->alias("ls");
  set_examples(cmd, "  trainctl list\n  trainctl list -A -T pytorch\n");
  bind_run(cmd, f, [] { throw NotImplementedError("'trainctl list'"); });
}

}  // namespace trainctl
