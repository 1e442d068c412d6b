// The command-line flags of `trainctl submit pytorch|mpi|volcano`, bound to SubmitOptions.
// cmd/submit_*.cpp register them on their subcommand; tests parse real command lines with
// the same functions. Arena's spellings (camelCase, --shm-size...) are hidden aliases.
#pragma once

#include "core/cli_fwd.h"
#include "submit/options.h"

namespace trainctl::submit {

// pytorch and mpi: the common training flags, the kind-specific ones, output flags and the
// positional command. `trainer` is the command's kind (SubmitOptions::trainer): its
// SubmitKind's rules select which kind-specific flags --help shows.
void add_training_flags(CLI::App& cmd, SubmitOptions& options, jobs::Trainer trainer);
// The flags of `submit pytorch` and `submit mpi`: add_training_flags for that kind.
void add_pytorch_flags(CLI::App& cmd, SubmitOptions& options);
void add_mpi_flags(CLI::App& cmd, SubmitOptions& options);

// tf: add_training_flags for TFJob plus Arena's tfjob flags (--ps, --chief, --evaluator and
// each replica type's image, port, resources and node selector).
void add_tf_flags(CLI::App& cmd, SubmitOptions& options);

// trainjob: the flags a TrainJob has a field for (runtime, trainer, initializers, pod patches).
void add_trainjob_flags(CLI::App& cmd, SubmitOptions& options);

// volcano: its own flag set (Arena's volcanojob flags plus the common pod flags).
void add_volcano_flags(CLI::App& cmd, SubmitOptions& options);

}  // namespace trainctl::submit
