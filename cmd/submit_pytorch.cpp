// trainctl submit pytorch: Submit a PyTorchJob (kubeflow.org/v1), or with --operator none an
// Indexed batch/v1 Job + headless Service.
#include "cmd/submit_run.h"
#include "submit/flags.h"

namespace trainctl {

void setup_submit_pytorch(CLI::App& submit, Factory& f, RunFn<submit::SubmitOptions> run) {
  add_submit_command(
      submit, f, std::move(run),
      {"pytorch", "pytorchjob", "Submit a PyTorchJob (kubeflow.org/v1)", submit::add_pytorch_flags,
       "  trainctl submit pytorch --name=mnist --gpus=1 --workers=3 --image=pytorch/pytorch \"python "
       "train.py\"\n"
       "  trainctl submit pytorch --name=mnist --workers=2 --operator none --image=pytorch/pytorch "
       "\"torchrun --nnodes=2 --node_rank=$RANK --master_addr=$MASTER_ADDR train.py\"\n"
       "  trainctl submit pytorch --name=mnist --image=pytorch/pytorch --dry-run \"python train.py\" "
       "| kubectl apply -f -\n"});
}

}  // namespace trainctl
