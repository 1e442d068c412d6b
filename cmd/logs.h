// trainctl logs: the log of a job's chief instance (master, launcher, first task, completion
// index 0), or of -i INSTANCE; -f follows it until the instance ends.
#pragma once

#include <string>
#include <vector>

#include "cmd/run.h"

namespace trainctl {

struct LogsOptions {
  std::string name;
  std::string type;
  std::string instance;
  std::string container;
  bool follow = false;
  long long tail = -1;
  std::string since;
  std::string since_time;
  bool timestamps = false;
  std::string reconnect_delay = "1s";
  // --all (cmd/logs_all.h)
  bool all = false;
  std::string role;
  long long rank = -1;
  bool prefix = true;
};

void run_logs(const LogsOptions& o, Factory& f);
// Registers the command on `root`; `run` is what it does once parsed (tests pass their own).
void setup_logs(CLI::App& root, Factory& f, RunFn<LogsOptions> run = run_logs);

}  // namespace trainctl
