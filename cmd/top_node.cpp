// trainctl top node: Show GPU capacity and allocation per node
#include <CLI/CLI.hpp>

#include "cmd/commands.h"
#include "cmd/run.h"

namespace trainctl {

void setup_top_node(CLI::App& top, Factory& f) {
  auto* cmd = top.add_subcommand("node", "Show GPU capacity and allocation per node");

  set_examples(cmd, "  trainctl top node\n  trainctl top node -d\n");
  bind_run(cmd, f, [] { throw NotImplementedError("'trainctl top node'"); });
}

}  // namespace trainctl
