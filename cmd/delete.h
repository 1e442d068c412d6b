// trainctl delete: deletes jobs with propagationPolicy Foreground, so that their pods,
// services and TensorBoard (owned through ownerReferences) go with them, and deletes what
// trainctl created beside the job itself as well (jobs/job_dependents.h), in case an operator
// released it. Arena's record ConfigMap NAME-TYPE, left by jobs Arena submitted, is deleted too.
// It returns at once, as Arena and `kubectl delete --wait=false` do: the API server keeps a
// job deleted in the foreground (deletionTimestamp and the foregroundDeletion finalizer) until
// the garbage collector has deleted its pods, which stop within their grace period; list and
// get show it as TERMINATING meanwhile, and say so.
#pragma once

#include <string>
#include <vector>

#include "cmd/run.h"

namespace trainctl {

struct DeleteOptions {
  std::vector<std::string> names;
  std::string type;
  // From the flags, by complete_delete before run_delete (kubectl's Complete/Validate/Run):
  std::vector<const jobs::JobKind*> kinds;  // the kinds -T leaves
};

// Validates the flags and fills what comes from them; UsageError for a bad -T.
void complete_delete(DeleteOptions& o);
// Runs the command on completed options.
void run_delete(const DeleteOptions& o, Factory& f);
// Registers the command on `root`; `run` is what it does once parsed (tests pass their own).
void setup_delete(CLI::App& root, Factory& f, RunFn<DeleteOptions> run = run_delete);

}  // namespace trainctl
