// trainctl get: one training job: status, trainer, duration, instances with node and GPUs,
// the TensorBoard URL, and with -e the events of the job and its pods.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cmd/idle_flags.h"
#include "cmd/run.h"

namespace trainctl {

struct GetOptions {
  // -o: the formats it prints, the first the default.
  static constexpr print::OutputFormat kFormats[] = {print::OutputFormat::Wide, print::OutputFormat::Json, print::OutputFormat::Yaml, print::OutputFormat::Name};

  std::string name;
  std::string type;
  bool events = false;
  bool gpus = false;  // -g/--gpus
  IdleFlags idle_flags;  // the window of -g's utilisation history, and its threshold
  std::string output;
  // From the flags, by complete_get before run_get (kubectl's Complete/Validate/Run):
  print::OutputFormat format = kFormats[0];
  std::vector<const jobs::JobKind*> kinds;  // the kinds -T leaves
  std::optional<metrics::IdleRule> idle;    // with -g: the rule of --idle-window/--idle-threshold
};

// Validates the flags and fills what comes from them; UsageError for a bad -o, -T or idle flag.
void complete_get(GetOptions& o);
// Runs the command on completed options.
void run_get(const GetOptions& o, Factory& f);
// Registers the command on `root`; `run` is what it does once parsed (tests pass their own).
void setup_get(CLI::App& root, Factory& f, RunFn<GetOptions> run = run_get);

}  // namespace trainctl
