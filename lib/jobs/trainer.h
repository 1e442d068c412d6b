// Compatibility for lib/submit, which still names a kind by this closed enum (SubmitOptions,
// SubmitKind's constructor, submit_kind_for), and for doctor's calls into it. The read side
// names a kind by its JobKind (kind.h: all_kinds, kind_named, kind_for_type) and never asks
// which kind it holds. This header goes when submit's kinds have a registry of their own.
#pragma once

#include "jobs/kind.h"

namespace trainctl::jobs {

enum class Trainer { PyTorch, MPI, Volcano, PyTorchNoOperator, TF, TrainJob };

const JobKind& kind_for(Trainer trainer);
// The enum value of a registered kind; throws Error for a kind without one.
Trainer trainer_of(const JobKind& kind);

}  // namespace trainctl::jobs
