// trainctl submit mpi: Submit an MPIJob (kubeflow.org/v2beta1)
#include <CLI/CLI.hpp>

#include "cmd/commands.h"
#include "cmd/run.h"

namespace trainctl {

void setup_submit_mpi(CLI::App& submit, Factory& f) {
  auto* cmd = submit.add_subcommand("mpi", "Submit an MPIJob (kubeflow.org/v2beta1)");
  cmd->alias("mpijob");
  set_examples(cmd, "  trainctl submit mpi --name=hvd --gpus=1 --workers=2 --image=horovod/horovod \"horovodrun -np 2 python train.py\"\n");
  bind_run(cmd, f, [] { throw NotImplementedError("'trainctl submit mpi'"); });
}

}  // namespace trainctl
