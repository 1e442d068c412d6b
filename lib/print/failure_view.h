// The root cause of a failed job (jobs/root_cause.h) as get, wait, submit --wait=finished and
// logs -f print it, and its JSON object (docs/json-output.md, "failure").
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "jobs/diagnose/root_cause.h"

namespace trainctl::print {

// "Failed: worker-1 exited 137 (OOMKilled) after 2 restarts at 2024-05-01T10:00:00Z", the
// message on the next line, then the log tail under a heading, each line indented.
std::string failure_text(const jobs::Failure& f);

// {replica, pod, container, exitCode, reason, message, restarts, finishedAt, logTail}; pod,
// container and exitCode are null for a failure only the job's condition tells.
nlohmann::ordered_json failure_json(const jobs::Failure& f);

}  // namespace trainctl::print
