// trainctl submit pytorch: Submit a PyTorchJob (kubeflow.org/v1), or with --operator none an
// Indexed batch/v1 Job + headless Service.
#include <CLI/CLI.hpp>
#include <memory>

#include "cmd/run.h"
#include "cmd/submit_run.h"
#include "submit/flags.h"

namespace trainctl {

void setup_submit_pytorch(CLI::App& submit, Factory& f, RunFn<submit::SubmitOptions> run) {
  auto options = std::make_shared<submit::SubmitOptions>();
  auto* cmd = submit.add_subcommand("pytorch", "Submit a PyTorchJob (kubeflow.org/v1)");
  cmd->alias("pytorchjob");
  submit::add_training_flags(*cmd, *options, jobs::Trainer::PyTorch);
  set_examples(cmd,
               "  trainctl submit pytorch --name=mnist --gpus=1 --workers=3 --image=pytorch/pytorch \"python "
               "train.py\"\n"
               "  trainctl submit pytorch --name=mnist --workers=2 --operator none --image=pytorch/pytorch "
               "\"torchrun --nnodes=2 --node_rank=$RANK --master_addr=$MASTER_ADDR train.py\"\n"
               "  trainctl submit pytorch --name=mnist --image=pytorch/pytorch --dry-run \"python train.py\" "
               "| kubectl apply -f -\n");
  bind_run(cmd, f, [options, &f, run = std::move(run)] { run(*options, f); });
}

}  // namespace trainctl
