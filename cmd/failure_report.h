// Printing why a job failed (jobs/root_cause.h) at the end of a command that saw it fail:
// submit --wait=finished, logs -f, wait.
#pragma once

#include <ostream>
#include <string>

#include "cmd/factory.h"
#include "jobs/kind.h"
#include "jobs/diagnose/root_cause.h"

namespace trainctl {

// The root cause (jobs::find_failure), or nullopt when it cannot be read: it adds to a
// command's output and never makes the command fail.
std::optional<jobs::Failure> read_failure(Factory& f, const jobs::JobKind& kind, const std::string& ns,
                                          const std::string& name);

// Writes the root cause block (print/failure_view.h) to `out`; nothing when the job has no
// failure to explain or it cannot be read (the command's own error says the rest).
void report_failure(Factory& f, const jobs::JobKind& kind, const std::string& ns, const std::string& name,
                    std::ostream& out);

}  // namespace trainctl
