// --wait: follow a submitted job through watch streams (Client::stream on ?watch=true, no
// polling) until every pod runs, or until the job ends (--wait=finished).
#pragma once

#include <chrono>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/iostreams.h"
#include "jobs/kind.h"
#include "kube/client.h"

namespace trainctl::submit {

enum class JobPhase { Pending, Running, Succeeded, Failed };

// The phase of a job object: PyTorchJob/MPIJob status.conditions (Succeeded, Failed,
// Running with status "True"), Volcano status.state.phase, batch/v1 Job conditions
// Complete/Failed (and status.active for running).
JobPhase job_phase(const jobs::JobKind& kind, const nlohmann::json& job);
const char* phase_name(JobPhase phase);

struct WaitOptions {
  bool until_finished = false;  // false: until `expected_pods` pods run
  int expected_pods = 1;
  std::optional<std::chrono::seconds> timeout;
  Clock clock = system_clock();
  // Called whenever the status changes, with a one-line description.
  std::function<void(const std::string&)> on_status;
};

// Returns the last phase seen (Running or Succeeded). Throws Error(JobFailed) when the job
// fails, Error(Timeout) when the timeout passes first.
JobPhase wait_for_job(kube::Client& client, const jobs::JobKind& kind, const std::string& namespace_,
                      const std::string& name, const WaitOptions& options);

}  // namespace trainctl::submit
