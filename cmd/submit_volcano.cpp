// trainctl submit volcano: Submit a Volcano Job (batch.volcano.sh/v1alpha1)
#include "cmd/submit_run.h"
#include "submit/flags.h"

namespace trainctl {

void setup_submit_volcano(CLI::App& submit, Factory& f, RunFn<submit::SubmitOptions> run) {
  add_submit_command(
      submit, f, std::move(run),
      {"volcano", "volcanojob", "Submit a Volcano Job (batch.volcano.sh/v1alpha1)", submit::add_volcano_flags,
       "  trainctl submit volcano --name=paddle --task=pserver:2 --task=trainer:2 "
       "--image=paddlepaddle/paddle \"python train.py\"\n"
       "  # paddle_k8s lists pods and endpoints: the pods run as a ServiceAccount allowed to\n"
       "  trainctl submit volcano --name=ctr --image=paddlepaddle/paddle:1.5.2 --service-account=paddle \\\n"
       "      --task=\"pserver:2:paddlepaddle/paddle:1.5.2:paddle_k8s start_pserver\" \\\n"
       "      --task=\"trainer:2:paddlepaddle/paddle:1.5.2:paddle_k8s start_trainer\"\n"});
}

}  // namespace trainctl
