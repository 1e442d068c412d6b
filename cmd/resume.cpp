// trainctl resume: lets a suspended training job run again; its operator creates its pods anew
// (see cmd/suspend.h). A job that is not suspended is left alone and the command exits 0.
#include <CLI/CLI.hpp>

#include "cmd/suspend.h"

namespace trainctl {

void run_resume(const SuspendOptions& o, Factory& f) { suspend_or_resume(o, f, false); }

void setup_resume(CLI::App& root, Factory& f, RunFn<SuspendOptions> run) {
  auto opts = std::make_shared<SuspendOptions>();
  auto* cmd = root.add_subcommand("resume", "Resume a suspended training job: its pods are created again");
  cmd->add_option("name", opts->name, "Job name")->required();
  add_type_option(cmd, opts->type, "Job type when two kinds share a name");
  set_examples(cmd,
               "  # Resume a suspended job (a Volcano Job: a ResumeJob Command, as vcctl job resume sends)\n"
               "  trainctl resume pytorch-dist\n"
               "  # In namespace team-a, the TFJob of that name\n"
               "  trainctl resume mnist -T tf -n team-a\n"
               "  # A job that is not suspended: says so and exits 0\n"
               "  trainctl resume running-job\n");
  bind_run(cmd, f, [opts, &f, run = std::move(run)] { run(*opts, f); });
}

}  // namespace trainctl
