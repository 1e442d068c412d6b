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
#include "jobs/job_dependents.h"
#include "jobs/job_query.h"
#include "jobs/kind.h"
#include "kube/json_util.h"
#include "kube/list_reads.h"
#include "kube/object_ops.h"
#include "print/escape.h"

namespace trainctl {

namespace {

// Deletes in the foreground. True when the object is still there, being deleted (the answer
// is the object with its deletionTimestamp; a removed object comes back as a Success Status).
bool delete_foreground(kube::Client& client, const kube::Resource& resource, const std::string& ns,
                       const std::string& name) {
  const auto answer = kube::delete_object(client, resource, ns, name, kube::Propagation::Foreground);
  return answer.is_object() && answer.value("kind", "") != "Status" &&
         kube::at_path(answer, {"metadata", "deletionTimestamp"}).is_string();
}

}  // namespace

void run_delete(const DeleteOptions& o, Factory& f) {
  const std::string ns = f.namespace_();
  const auto kinds = jobs::kinds_for_type(o.type);
  auto& client = f.client();
  // One round trip to find which kind holds each name, and its Arena record ConfigMap.
  std::vector<kube::Read> reads;
  for (const auto& name : o.names) {
    for (const auto* k : kinds) reads.push_back({k->resource.object_path(ns, name), false});
  }
  auto results = kube::read_all(client, reads);
  int missing = 0, ambiguous = 0;
  // With one name its error is the command's error (one line); with several, each failed
  // name gets a line and the summary comes last.
  const bool single = o.names.size() == 1;
  for (size_t n = 0; n < o.names.size(); ++n) {
    const std::string& name = o.names[n];
    std::vector<const jobs::JobKind*> found;
    for (size_t k = 0; k < kinds.size(); ++k) {
      const auto& r = results[n * kinds.size() + k];
      if (!r.not_found && kube::labels_match(r.object, kinds[k]->list_selector)) found.push_back(kinds[k]);
    }
    if (found.size() > 1) {
      std::string list;
      for (const auto* k : found) list += (list.empty() ? "" : ", ") + k->type;
      const std::string msg =
          "there is more than one training job named " + name + " (" + list + "): choose one with -T/--type";
      if (single) throw UsageError(msg);
      f.io().err() << "error: " << print::sanitize(msg) << "\n";
      ++ambiguous;
      continue;
    }
    std::vector<jobs::Dependent> dependents;
    bool terminating = false;
    try {
      if (found.empty()) throw ApiError(404, "NotFound", "not found");
      const auto& job =
          results[n * kinds.size() + (std::find(kinds.begin(), kinds.end(), found.front()) - kinds.begin())];
      dependents = jobs::find_dependents(client, *found.front(), ns, name,
                                         kube::str(kube::at(job.object, "metadata"), "uid"));
      terminating = delete_foreground(client, found.front()->resource, ns, name);
    } catch (const ApiError& e) {
      if (!e.is_not_found()) throw;
      const std::string msg = "job " + name + " not found in namespace " + ns;
      if (single) throw NotFoundError(msg);
      f.io().err() << "error: " << print::sanitize(msg) << "\n";
      ++missing;
      continue;
    }
    jobs::delete_dependents(client, dependents);
    try {
      delete_foreground(client, kube::config_maps(), ns, name + "-" + found.front()->type);
    } catch (const ApiError& e) {
      if (!e.is_not_found()) throw;
    }
    if (terminating)
      f.io().out() << "The training job " << print::sanitize(name)
                   << " is being deleted: TERMINATING until its pods have stopped\n";
    else
      f.io().out() << "The training job " << print::sanitize(name) << " has been deleted successfully\n";
  }
  if (missing > 0)
    throw NotFoundError(std::to_string(missing) + " of " + std::to_string(o.names.size()) +
                        " jobs not found");
  if (ambiguous > 0)
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
  bind_run(cmd, f, [opts, &f, run = std::move(run)] { run(*opts, f); });
}

}  // namespace trainctl
