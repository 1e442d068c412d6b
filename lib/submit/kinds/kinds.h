// The submit kinds, one file each; submit_kind.cpp's registry is their only user.
#pragma once

#include "submit/submit_kind.h"

namespace trainctl::submit::kinds {

const SubmitKind& pytorchjob();    // PyTorchJob (kubeflow.org/v1, training-operator)
const SubmitKind& pytorch_none();  // --operator none: an Indexed batch/v1 Job + headless Service
const SubmitKind& mpijob();        // MPIJob (kubeflow.org/v2beta1, mpi-operator)
const SubmitKind& tfjob();         // TFJob (kubeflow.org/v1, training-operator)
const SubmitKind& volcanojob();
const SubmitKind& trainjob();      // TrainJob (trainer.kubeflow.org/v1alpha1, Kubeflow Trainer v2)    // Volcano Job (batch.volcano.sh/v1alpha1)

}  // namespace trainctl::submit::kinds
