// The registry of job kinds: each kind's definition, one per file of this directory, with the
// upstream its rules follow, and all_kinds() (kinds.cpp), which lists them. Adding a kind: its
// file, its line here and its entry in kinds.cpp.
#pragma once

#include "jobs/kind.h"

namespace trainctl::jobs {

JobKind pytorchjob_kind();    // pytorchjob.cpp    PyTorchJob, training-operator v1.9.0
JobKind mpijob_kind();        // mpijob.cpp        MPIJob, mpi-operator v0.8.0
JobKind volcanojob_kind();    // volcanojob.cpp    Volcano Job, batch.volcano.sh/v1alpha1
JobKind pytorch_none_kind();  // pytorch_none.cpp  Indexed batch/v1 Job, operator-free PyTorch
JobKind tfjob_kind();         // tfjob.cpp         TFJob, training-operator v1.9.0
JobKind trainjob_kind();      // trainjob.cpp      TrainJob, Kubeflow Trainer v2.3.0 (JobSet v0.12.0)

}  // namespace trainctl::jobs
