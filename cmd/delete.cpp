// trainctl delete: deletes jobs with propagationPolicy Foreground, so that their pods,
// services and TensorBoard (owned through ownerReferences) go with them, and deletes what
// trainctl created beside the job itself as well (jobs/job_dependents.h), in case an operator
// released it. Arena's record ConfigMap NAME-TYPE, left by jobs Arena submitted, is deleted too.
// It returns at once, as Arena and `kubectl delete --wait=false` do: the API server keeps a
// job deleted in the foreground (deletionTimestamp and the foregroundDeletion finalizer) until
// the garbage collector has deleted its pods, which stop within their grace period; list and
// get show it as TERMINATING meanwhile, and say so.
#include "cmd/delete.h"

#include <CLI/CLI.hpp>

#include "cmd/run.h"
#include "jobs/delete_job.h"
#include "jobs/find_jobs.h"
#include "jobs/job_query.h"
#include "print/escape.h"

namespace trainctl {

void complete_delete(DeleteOptions& o) { o.kinds = jobs::kinds_for_type(o.type); }

void run_delete(const DeleteOptions& o, Factory& f) {
  const std::string ns = f.namespace_();
  auto& client = f.client();
  // One round trip to find which kind holds each name (jobs/find_jobs.h).
  const auto found = jobs::find_jobs(client, ns, o.names, o.kinds);
  // With one name its error is the command's error (one line); with several, each failed
  // name gets a line and the summary comes last.
  const bool single = o.names.size() == 1;
  size_t missing = 0;
  for (const auto& match : found.names) {
    try {
      match.throw_unless_found(ns);
      const auto deleted = jobs::delete_job(client, ns, match);
      f.io().out() << "The training job " << print::sanitize(match.name)
                   << (deleted == jobs::Deleted::Terminating
                           ? " is being deleted: TERMINATING until its pods have stopped\n"
                           : " has been deleted successfully\n");
    } catch (const NotFoundError& e) {
      if (single) throw;
      f.io().err() << "error: " << print::sanitize(e.what()) << "\n";
      ++missing;
    } catch (const UsageError& e) {
      if (single) throw;
      f.io().err() << "error: " << print::sanitize(e.what()) << "\n";
    }
  }
  if (missing > 0)
    throw NotFoundError(std::to_string(missing) + " of " + std::to_string(o.names.size()) +
                        " jobs not found");
  if (found.ambiguous() > 0)
    throw UsageError("some names are used by more than one kind of job; nothing was deleted for them");
}

void setup_delete(CLI::App& root, Factory& f, RunFn<DeleteOptions> run) {
  auto opts = std::make_shared<DeleteOptions>();
  auto* cmd = root.add_subcommand("delete", "Delete training jobs and everything created for them");
  cmd->alias("del");
  cmd->add_option("names", opts->names, "Job names")->required();
  add_type_option(cmd, opts->type, "Job type when two kinds share a name");
  set_examples(cmd,
               "  # Delete a job; its pods, services and TensorBoard go with it\n"
               "  trainctl delete pytorch-dist\n"
               "  # Several at once; the exit status is 3 if any was not found\n"
               "  trainctl del job-a job-b job-c\n"
               "  # The MPI job of a name that a PyTorch job also uses\n"
               "  trainctl delete mnist -T mpi\n");
  bind_run(cmd, f, [opts, &f, run = std::move(run)] {
    complete_delete(*opts);
    run(*opts, f);
  });
}

}  // namespace trainctl
