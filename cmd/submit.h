// trainctl submit <kind>: one command per submit kind (lib/submit/kinds/kinds.def), each with
// the flags its kind declares; run_submit validates, renders, prints (--dry-run) or creates
// atomically, then optionally waits.
#pragma once

#include "cmd/run.h"
#include "submit/flag_set.h"
#include "submit/options.h"

namespace trainctl {

void run_submit(const submit::SubmitOptions& options, Factory& f);

// Registers `flags` on `cmd` as CLI11 options, in their order.
void add_submit_flags(CLI::App& cmd, const submit::FlagSet& flags);

// Adds under `submit` the command of every submit kind that has one, each with its own
// options, bound to `run` (tests pass their own to see the options).
void setup_submit_commands(CLI::App& submit, Factory& f, RunFn<submit::SubmitOptions> run = run_submit);

}  // namespace trainctl
