// trainctl suspend: suspends a training job. Its pods are deleted by its operator and it
// stays, SUSPENDED, until `trainctl resume` (its status and conditions: jobs/suspend.h and
// each kind's file). A job already suspended is left alone and the command exits 0, as
// `kubectl patch` does for a patch that changes nothing.
#include "cmd/suspend.h"

#include <CLI/CLI.hpp>

#include "jobs/job_query.h"
#include "jobs/suspend.h"
#include "print/escape.h"

namespace trainctl {

void suspend_or_resume(const SuspendOptions& o, Factory& f, bool suspend) {
  const std::string ns = f.namespace_();
  auto& client = f.client();
  const jobs::FoundJob found =
      jobs::find_job_object(client, ns, o.name, jobs::kinds_for_type(o.type));
  const jobs::SuspendPlan plan =
      jobs::plan_suspend(found, suspend, jobs::kueue_workload_of(client, ns, found.object));
  const std::string name = print::sanitize(o.name);
  if (plan.action == jobs::SuspendPlan::Action::AlreadyDone) {
    f.io().out() << "The training job " << name << " is already "
                 << (suspend ? "suspended" : "running (not suspended)") << "\n";
    return;
  }
  jobs::apply_suspend(client, found, ns, plan.change);
  if (suspend)
    f.io().out() << "The training job " << name
                 << " is being suspended: its pods are deleted; resume it with "
                 << "`trainctl resume " << name << "`\n";
  else
    f.io().out() << "The training job " << name << " is being resumed: its pods are created again\n";
}

void run_suspend(const SuspendOptions& o, Factory& f) { suspend_or_resume(o, f, true); }

void setup_suspend(CLI::App& root, Factory& f, RunFn<SuspendOptions> run) {
  auto opts = std::make_shared<SuspendOptions>();
  auto* cmd = root.add_subcommand(
      "suspend", "Suspend a training job: its pods are deleted, the job stays until resumed");
  cmd->add_option("name", opts->name, "Job name")->required();
  add_type_option(cmd, opts->type, "Job type when two kinds share a name");
  set_examples(cmd,
               "  # Suspend a job (PyTorchJob, TFJob, MPIJob: spec.runPolicy.suspend; batch Job:\n"
               "  # spec.suspend; Volcano Job: an AbortJob Command, as vcctl job suspend sends)\n"
               "  trainctl suspend pytorch-dist\n"
               "  # The MPI job of a name that a PyTorch job also uses, in namespace team-a\n"
               "  trainctl suspend mnist -T mpi -n team-a\n"
               "  # A Kubeflow Trainer v2 TrainJob (spec.suspend)\n"
               "  trainctl suspend llama-ft -T trainjob\n"
               "  # Let it run again\n"
               "  trainctl resume pytorch-dist\n"
               "  # A job in a Kueue queue is refused (exit 2): Kueue would undo it; stop its Workload\n"
               "  kubectl patch workload WORKLOAD --type merge -p '{\"spec\":{\"active\":false}}'\n");
  bind_run(cmd, f, [opts, &f, run = std::move(run)] { run(*opts, f); });
}

}  // namespace trainctl
