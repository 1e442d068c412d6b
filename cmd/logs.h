// trainctl logs: the log of a job's chief instance (master, launcher, first task, completion
// index 0), or of -i INSTANCE; -f follows it until the instance ends.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "cmd/run.h"
#include "jobs/logs/pod_logs.h"

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
  // From the flags, by complete_logs before run_logs (kubectl's Complete/Validate/Run):
  std::vector<const jobs::JobKind*> kinds;  // the kinds -T leaves
  jobs::LogOptions window;                  // --tail, --since, --since-time, --timestamps
  std::chrono::milliseconds reconnect{};    // --reconnect-delay, with -f or --all
};

// Validates the flags and fills what comes from them; UsageError for a bad -T, --since or
// --since-time.
void complete_logs(LogsOptions& o);
// Runs the command on completed options.
void run_logs(const LogsOptions& o, Factory& f);
// Registers the command on `root`; `run` is what it does once parsed (tests pass their own).
void setup_logs(CLI::App& root, Factory& f, RunFn<LogsOptions> run = run_logs);

}  // namespace trainctl
