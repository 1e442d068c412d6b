// trainctl submit volcano: Submit a Volcano Job (batch.volcano.sh/v1alpha1)
#include <CLI/CLI.hpp>

#include "cmd/commands.h"
#include "cmd/run.h"

namespace trainctl {

void setup_submit_volcano(CLI::App& submit, Factory& f) {
  auto* cmd = submit.add_subcommand("volcano", "Submit a Volcano Job (batch.volcano.sh/v1alpha1)");
  cmd->alias("volcanojob");
  set_examples(cmd, "  trainctl submit volcano --name=paddle --task=pserver:2 --task=trainer:2 --image=paddlepaddle/paddle \"python train.py\"\n");
  bind_run(cmd, f, [] { throw NotImplementedError("'trainctl submit volcano'"); });
}

}  // namespace trainctl
