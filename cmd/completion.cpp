// trainctl completion: Print a shell completion script (bash, zsh or fish)
#include <CLI/CLI.hpp>

#include "cmd/commands.h"
#include "cmd/run.h"

namespace trainctl {

void setup_completion(CLI::App& root, Factory& f) {
  auto* cmd = root.add_subcommand("completion", "Print a shell completion script (bash, zsh or fish)");

  set_examples(cmd, "  source <(trainctl completion bash)\n");
  bind_run(cmd, f, [] { throw NotImplementedError("'trainctl completion'"); });
}

}  // namespace trainctl
