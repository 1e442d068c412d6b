// The run function shared by `trainctl submit pytorch|mpi|volcano`: validate, render,
// print (--dry-run) or create atomically, then optionally wait.
#pragma once

#include "cmd/run.h"
#include "submit/options.h"

namespace trainctl {

void run_submit(const submit::SubmitOptions& options, Factory& f);

// One `submit <kind>` command: its name, alias, one-line help, the function that registers
// its flags into the options it parses (submit/flags.h), and its --help examples.
struct SubmitCommand {
  const char* name;
  const char* alias;
  const char* help;
  void (*add_flags)(CLI::App& cmd, submit::SubmitOptions& options);
  const char* examples;
};
// Adds `command` under `submit` with its own options, bound to `run`.
void add_submit_command(CLI::App& submit, Factory& f, RunFn<submit::SubmitOptions> run,
                        const SubmitCommand& command);

// Register `submit pytorch|mpi|volcano|tf` on `submit`; `run` is what they do once parsed
// (tests pass their own to see the options).
void setup_submit_pytorch(CLI::App& submit, Factory& f, RunFn<submit::SubmitOptions> run = run_submit);
void setup_submit_mpi(CLI::App& submit, Factory& f, RunFn<submit::SubmitOptions> run = run_submit);
void setup_submit_volcano(CLI::App& submit, Factory& f, RunFn<submit::SubmitOptions> run = run_submit);
void setup_submit_tf(CLI::App& submit, Factory& f, RunFn<submit::SubmitOptions> run = run_submit);
void setup_submit_trainjob(CLI::App& submit, Factory& f, RunFn<submit::SubmitOptions> run = run_submit);

}  // namespace trainctl
