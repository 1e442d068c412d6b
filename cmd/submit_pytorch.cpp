// trainctl submit pytorch: Submit a PyTorchJob (kubeflow.org/v1)
#include <CLI/CLI.hpp>

#include "cmd/commands.h"
#include "cmd/run.h"

namespace trainctl {

void setup_submit_pytorch(CLI::App& submit, Factory& f) {
  auto* cmd = submit.add_subcommand("pytorch", "Submit a PyTorchJob (kubeflow.org/v1)");
  cmd->alias("pytorchjob");
  set_examples(cmd, "  trainctl submit pytorch --name=mnist --gpus=1 --workers=3 --image=pytorch/pytorch \"python train.py\"\n");
  bind_run(cmd, f, [] { throw NotImplementedError("'trainctl submit pytorch'"); });
}

}  // namespace trainctl
