// trainctl suspend and trainctl resume (cmd/resume.cpp): stop a job's pods and keep the job,
// and let it run again, the way the job's kind does it (jobs/suspend.h).
#pragma once

#include <string>

#include "cmd/run.h"

namespace trainctl {

struct SuspendOptions {
  std::string name;
  std::string type;
};

void run_suspend(const SuspendOptions& o, Factory& f);
void run_resume(const SuspendOptions& o, Factory& f);
// Registers each command on `root`; `run` is what it does once parsed (tests pass their own).
void setup_suspend(CLI::App& root, Factory& f, RunFn<SuspendOptions> run = run_suspend);
void setup_resume(CLI::App& root, Factory& f, RunFn<SuspendOptions> run = run_resume);

// What both do: finds the job, refuses or changes it, and says what happened.
void suspend_or_resume(const SuspendOptions& o, Factory& f, bool suspend);

}  // namespace trainctl
