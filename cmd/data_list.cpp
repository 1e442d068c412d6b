// trainctl data list: List the PVCs usable with --data
#include <CLI/CLI.hpp>

#include "cmd/commands.h"
#include "cmd/run.h"

namespace trainctl {

void setup_data_list(CLI::App& data, Factory& f) {
  auto* cmd = data.add_subcommand("list", "List the PVCs usable with --data");

  set_examples(cmd, "  trainctl data list\n");
  bind_run(cmd, f, [] { throw NotImplementedError("'trainctl data list'"); });
}

}  // namespace trainctl
