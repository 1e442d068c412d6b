// trainctl top job: Show GPU requests and allocation per job
#include <CLI/CLI.hpp>

#include "cmd/commands.h"
#include "cmd/run.h"

namespace trainctl {

void setup_top_job(CLI::App& top, Factory& f) {
  auto* cmd = top.add_subcommand("job", "Show GPU requests and allocation per job");

  set_examples(cmd, "  trainctl top job\n");
  bind_run(cmd, f, [] { throw NotImplementedError("'trainctl top job'"); });
}

}  // namespace trainctl
