// The run function shared by `trainctl submit pytorch|mpi|volcano`: validate, render,
// print (--dry-run) or create atomically, then optionally wait.
#pragma once

#include "cmd/factory.h"
#include "submit/options.h"

namespace trainctl {

void run_submit(const submit::SubmitOptions& options, Factory& f);

}  // namespace trainctl
