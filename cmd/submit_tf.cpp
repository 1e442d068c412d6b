// trainctl submit tf: Submit a TFJob (kubeflow.org/v1)
#include "cmd/submit_run.h"
#include "submit/flags.h"

namespace trainctl {

void setup_submit_tf(CLI::App& submit, Factory& f, RunFn<submit::SubmitOptions> run) {
  add_submit_command(
      submit, f, std::move(run),
      {"tf", "tfjob", "Submit a TFJob (kubeflow.org/v1)", submit::add_tf_flags,
       "  trainctl submit tf --name=tf-dist --ps=1 --workers=2 --chief --gpus=1 --image=IMAGE \"python "
       "train.py\"\n"
       "  trainctl submit tf --name=estimator --ps=2 --ps-cpu=4 --ps-memory=8Gi --workers=4 --gpus=1 --chief "
       "--evaluator --image=IMAGE \"python train.py\"\n"
       "  trainctl submit tf --name=mnist --workers=2 --worker-selector=accelerator=v100 "
       "--success-policy=AllWorkers --image=IMAGE \"python mnist.py\"\n"});
}

}  // namespace trainctl
