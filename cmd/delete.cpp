// trainctl delete: Delete training jobs and everything created for them
#include <CLI/CLI.hpp>

#include "cmd/commands.h"
#include "cmd/run.h"

namespace trainctl {

void setup_delete(CLI::App& root, Factory& f) {
  auto* cmd = root.add_subcommand("delete", "Delete training jobs and everything created for them");
  cmd->alias("del");
  set_examples(cmd, "  trainctl delete pytorch-dist\n");
  bind_run(cmd, f, [] { throw NotImplementedError("'trainctl delete'"); });
}

}  // namespace trainctl
