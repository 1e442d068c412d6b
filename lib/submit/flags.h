// The command-line flags of `trainctl submit pytorch|mpi|volcano`, bound to SubmitOptions.
// cmd/submit_*.cpp register them on their subcommand; tests parse real command lines with
// the same functions. Arena's spellings (camelCase, --shm-size...) are hidden aliases.
#pragma once

#include "submit/options.h"

namespace CLI {
class App;
}

namespace trainctl::submit {

// pytorch and mpi: the common training flags, the kind-specific ones, output flags and the
// positional command. `trainer` is the command's kind (SubmitOptions::trainer): its
// SubmitKind's rules select which kind-specific flags --help shows.
void add_training_flags(CLI::App& cmd, SubmitOptions& options, jobs::Trainer trainer);

// volcano: its own flag set (Arena's volcanojob flags plus the common pod flags).
void add_volcano_flags(CLI::App& cmd, SubmitOptions& options);

}  // namespace trainctl::submit
