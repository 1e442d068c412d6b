// Kueue v0.19.2's TrainJob integration (kubernetes-sigs/kueue v0.19.2
// pkg/controller/jobs/trainjob/trainjob_webhook.go and trainjob_controller.go, on
// pkg/controller/jobframework), beside kubesim's other Kueue jobs (kueue.h):
//  - the mutating webhook mtrainjob.kb.io (CREATE; not in kube-system and kueue-system)
//    suspends a TrainJob labelled kueue.x-k8s.io/queue-name and appends, whatever its labels,
//    the runtimePatch {manager: kueue.x-k8s.io/manager, trainingRuntimeSpec.template.spec: {}};
//  - the job reconciler gives a queued TrainJob a Workload `trainjob-NAME-HASH` whose podSets
//    are the replicated jobs of the JobSet the Trainer would build (name, template,
//    replicas x min(parallelism, completions)); once the Workload is admitted it fills its
//    runtimePatch with each podSet's labels (kueue.x-k8s.io/podset, local-queue-name,
//    cluster-queue-name), annotation kueue.x-k8s.io/workload, the flavor's nodeSelector and
//    tolerations, updates the TrainJob while it is still suspended, then unsuspends it
//    (RunWithPodSetsInfo); a Workload no longer admitted suspends the TrainJob again and, once
//    no replicated job is active, empties that patch (Stop, RestorePodSetsInfo); a TrainJob
//    that is Complete or Failed finishes its Workload.
#pragma once

#include "kubesim/controllers/controller.h"
#include "kubesim/controllers/trainer_build.h"
#include "kubesim/kueue_model.h"

namespace kubesim {

inline constexpr const char* kKueueRuntimePatchManager = "kueue.x-k8s.io/manager";

// Whether Kueue runs its TrainJob integration here: its CRDs are served (the TrainJob
// integration is on in v0.19.2's default configuration).
bool kueue_trainjob_integration(const Store& store);

// The webhook's Default on a TrainJob being created.
void kueue_trainjob_webhook_default(const Store& store, json& trainjob);

class KueueTrainJobController : public Controller {
 public:
  KueueTrainJobController(Context& ctx, TrainerOptions options);
  void reconcile(const std::string& ns, const std::string& name) override;

 private:
  // The pod sets of the Workload (pkg/controller/jobs/jobset PodSets), or an error message.
  json pod_sets(const json& trainjob, std::string& error) const;
  void run_with_pod_sets_info(const json& trainjob, const json& workload);
  void stop(const json& trainjob);

  KueueTypes m_kueue;
  TrainerOptions m_options;
};

}  // namespace kubesim
