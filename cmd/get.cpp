// trainctl get: Show one training job: status, instances, TensorBoard
#include <CLI/CLI.hpp>

#include "cmd/commands.h"
#include "cmd/run.h"

namespace trainctl {

void setup_get(CLI::App& root, Factory& f) {
  auto* cmd = root.add_subcommand("get", "Show one training job: status, instances, TensorBoard");

  set_examples(cmd, "  trainctl get pytorch-dist\n  trainctl get pytorch-dist -e\n");
  bind_run(cmd, f, [] { throw NotImplementedError("'trainctl get'"); });
}

}  // namespace trainctl
