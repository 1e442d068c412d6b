// trainctl logs --all: every replica's log, each line prefixed with its replica (worker-1);
// with -f all of them at once until the job ends. --role and --rank choose replicas.
#pragma once

#include "cmd/logs.h"
#include "jobs/logs/pod_logs.h"
#include "jobs/training_job.h"

namespace trainctl {

// Adds --all, --role, --rank and --prefix to `logs`.
void add_logs_all_flags(CLI::App* cmd, LogsOptions& o);
// Whether the options ask for logs --all (--role or --rank imply it).
bool wants_all_logs(const LogsOptions& o);
// Runs logs --all for `job`, with the window (tail, since, timestamps) already in `l`.
void run_logs_all(const LogsOptions& o, Factory& f, const jobs::LogOptions& l, const jobs::TrainingJob& job);

}  // namespace trainctl
