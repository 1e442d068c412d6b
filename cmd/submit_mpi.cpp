// trainctl submit mpi: Submit an MPIJob (kubeflow.org/v2beta1)
#include <CLI/CLI.hpp>
#include <memory>

#include "cmd/run.h"
#include "cmd/submit_run.h"
#include "submit/flags.h"

namespace trainctl {

void setup_submit_mpi(CLI::App& submit, Factory& f, RunFn<submit::SubmitOptions> run) {
  auto options = std::make_shared<submit::SubmitOptions>();
  auto* cmd = submit.add_subcommand("mpi", "Submit an MPIJob (kubeflow.org/v2beta1)");
  cmd->alias("mpijob");
  submit::add_training_flags(*cmd, *options, jobs::Trainer::MPI);
  set_examples(
      cmd,
      "  trainctl submit mpi --name=hvd --gpus=1 --workers=2 --image=horovod/horovod \"horovodrun -np 2 "
      "python train.py\"\n"
      "  trainctl submit mpi --name=topo --gpus=1 --workers=4 --gputopology --image=IMAGE \"mpirun ...\"\n"
      "  trainctl submit mpi --name=bench --workers=2 --gang --queue=test-queue --schedule-timeout=180s "
      "--image=IMAGE \"mpirun ...\"\n");
  bind_run(cmd, f, [options, &f, run = std::move(run)] { run(*options, f); });
}

}  // namespace trainctl
