// list -w: the list, then one row per job that changes, as `kubectl get -w` prints them,
// from one list and watches of each kind's jobs and their pods (jobs/job_list_live.h).
#pragma once

#include "cmd/list.h"

namespace trainctl {

// Returns only by an exception (Ctrl-C ends the process).
void run_list_watch(const ListOptions& o, print::OutputFormat format, Factory& f);

}  // namespace trainctl
