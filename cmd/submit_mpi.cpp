// trainctl submit mpi: Submit an MPIJob (kubeflow.org/v2beta1)
#include "cmd/submit_run.h"
#include "submit/flags.h"

namespace trainctl {

void setup_submit_mpi(CLI::App& submit, Factory& f, RunFn<submit::SubmitOptions> run) {
  add_submit_command(
      submit, f, std::move(run),
      {"mpi", "mpijob", "Submit an MPIJob (kubeflow.org/v2beta1)", submit::add_mpi_flags,
       "  trainctl submit mpi --name=hvd --gpus=1 --workers=2 --image=horovod/horovod \"horovodrun -np 2 "
       "python train.py\"\n"
       "  trainctl submit mpi --name=topo --gpus=1 --workers=4 --gputopology --image=IMAGE \"mpirun ...\"\n"
       "  trainctl submit mpi --name=bench --workers=2 --gang --queue=test-queue --schedule-timeout=180s "
       "--image=IMAGE \"mpirun ...\"\n"
       "  # a gang that counts the launcher: it is created with the workers (launcherCreationPolicy AtStartup)\n"
       "  trainctl submit mpi --name=bench --workers=1 --gang --min-available=2 --image=IMAGE \"mpirun ...\"\n"});
}

}  // namespace trainctl
