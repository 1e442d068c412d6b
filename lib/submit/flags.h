// The flags the submit commands share, bound to SubmitOptions: each kind's add_flags
// (lib/submit/kinds/) puts these and its own into a FlagSet, which cmd/submit.cpp registers.
// Arena's spellings (camelCase, --shm-size...) are hidden aliases.
#pragma once

#include <functional>

#include "submit/flag_set.h"
#include "submit/options.h"
#include "submit/submit_kind.h"

namespace trainctl::submit {

// Name, image, resources, env, volumes, labels, pod settings, retries.
void add_pod_flags(FlagSet& f, SubmitOptions& options);
// --dry-run, -o, --wait, --timeout, --template-dir and the positional command.
void add_output_flags(FlagSet& f, SubmitOptions& options);
// --sync-mode, --sync-source, --sync-image (and Arena's camelCase spellings): the code-sync
// init container (templates/common/pod.yaml; a TrainJob's own runtime, trainjob_code_sync.cpp).
void add_code_sync_flags(FlagSet& f, SubmitOptions& options);
// --worker-image: shown where `rules` take it (SubmitKind::Rules::worker_image), hidden elsewhere
// so that SubmitKind::resolve says which commands do.
void add_worker_image_flag(FlagSet& f, SubmitOptions& options, const SubmitKind::Rules& rules);
// The training-operator and mpi-operator kinds' flags: the pod flags, --workers, code sync,
// TensorBoard, run policy, gang and queue, then the kind's own (`kind_flags`), --worker-image
// unless those gave it, the output flags.
void add_training_flags(FlagSet& f, SubmitOptions& options, const SubmitKind::Rules& rules,
                        const std::function<void()>& kind_flags = {});

}  // namespace trainctl::submit
