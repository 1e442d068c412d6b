// trainctl top job: GPUs requested and allocated per job, with the totals of running jobs;
// with a job name, Arena's per-job view of its instances (GPU metrics shown as N/A: no
// metrics source is read).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cmd/idle_flags.h"
#include "cmd/run.h"

namespace trainctl {

struct TopJobOptions {
  // -o: the formats it prints, the first the default.
  static constexpr print::OutputFormat kFormats[] = {print::OutputFormat::Wide, print::OutputFormat::Json, print::OutputFormat::Yaml};

  std::string name;      // a job: the per-instance view
  std::string instance;  // with name: only this instance
  bool all_namespaces = false;
  std::string type;
  std::string output;
  IdleFlags idle_flags;  // with a name: when a GPU counts as idle
  int refresh = 0;       // -r SECONDS, without a name: kept current from a watch; 0: once
  // From the flags, by complete_top_job before run_top_job (kubectl's Complete/Validate/Run):
  print::OutputFormat format = kFormats[0];
  std::vector<const jobs::JobKind*> kinds;  // the kinds -T leaves
  std::optional<metrics::IdleRule> idle;    // with a name: the rule of the idle flags
};

// Validates the flags and fills what comes from them; UsageError for a bad -o, -T or idle
// flag, or a flag the form (with or without a job name) does not take.
void complete_top_job(TopJobOptions& o);
// Runs the command on completed options.
void run_top_job(const TopJobOptions& o, Factory& f);
// Registers the command on `top`; `run` is what it does once parsed (tests pass their own).
void setup_top_job(CLI::App& top, Factory& f, RunFn<TopJobOptions> run = run_top_job);

}  // namespace trainctl
