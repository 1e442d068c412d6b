// trainctl submit trainjob: Submit a TrainJob (trainer.kubeflow.org/v1alpha1, Kubeflow Trainer v2)
// on a ClusterTrainingRuntime or TrainingRuntime.
#include "cmd/submit_run.h"
#include "submit/flags.h"

namespace trainctl {

void setup_submit_trainjob(CLI::App& submit, Factory& f, RunFn<submit::SubmitOptions> run) {
  add_submit_command(
      submit, f, std::move(run),
      {"trainjob", "tj", "Submit a TrainJob (trainer.kubeflow.org/v1alpha1) on a training runtime",
       submit::add_trainjob_flags,
       "  # Two nodes with one GPU each on the torch-distributed ClusterTrainingRuntime\n"
       "  trainctl submit trainjob --name=mnist --runtime=torch-distributed --workers=2 --gpus=1 \\\n"
       "    --data=training-data:/data \"torchrun /data/train.py\"\n"
       "  # Queued in Kueue's LocalQueue team-a (Kueue suspends it until admitted)\n"
       "  trainctl submit trainjob --name=mnist --runtime=torch-distributed --kueue-queue=team-a \"torchrun train.py\"\n"
       "  # Fine-tune with the runtime's own command and initializers\n"
       "  trainctl submit trainjob --name=tune --runtime=torchtune-llama3.2-1b --dataset-uri=hf://tatsu-lab/alpaca\n"
       "  # See what would be sent\n"
       "  trainctl submit trainjob --name=mnist --runtime=torch-distributed --dry-run \"torchrun train.py\"\n"});
}

}  // namespace trainctl
