// Which API `submit pytorch` uses when neither --api nor --operator says: a PyTorchJob where
// the cluster serves kubeflow.org/v1 pytorchjobs, a TrainJob on the torch-distributed
// ClusterTrainingRuntime where it serves only Kubeflow Trainer v2 (trainer.kubeflow.org
// trainjobs). Read from discovery (/apis/GROUP/VERSION), as kubectl's RESTMapper does.
#pragma once

#include "kube/client.h"

namespace trainctl::submit {

// True when the cluster serves trainer.kubeflow.org/v1alpha1 trainjobs and no
// kubeflow.org/v1 pytorchjobs. An answer other than 2xx or 404 leaves it false (PyTorchJob).
bool serves_only_trainer_v2(kube::Client& client);

}  // namespace trainctl::submit
