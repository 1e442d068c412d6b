// --wait: follow a submitted job through watch streams (Client::stream on ?watch=true, no
// polling) until every pod runs, or until the job ends (--wait=finished).
#pragma once

#include <chrono>
#include <exception>
#include <functional>
#include <optional>
#include <string>

#include "core/iostreams.h"
#include "jobs/job_status.h"
#include "jobs/kind.h"
#include "kube/client.h"
#include "kube/restart_backoff.h"

namespace trainctl::submit {

struct WaitOptions {
  bool until_finished = false;  // false: until `expected_pods` pods run
  // With until_finished: also end when the job's status is RUNNING (trainctl wait --for=running).
  bool until_job_running = false;
  int expected_pods = 1;
  std::optional<std::chrono::seconds> timeout;
  Clock clock = system_clock();
  // Between watches that ended without an event, were cut or failed (kube/restart_backoff.h);
  // sleep defaults to std::this_thread::sleep_for. Tests pass their own.
  kube::RestartBackoff::Params backoff;
  std::function<void(std::chrono::milliseconds)> sleep;
  // Called whenever the status changes, with a one-line description.
  std::function<void(const std::string&)> on_status;
  // Called with the job's status each time the job object is read (list, watch event, GET).
  std::function<void(jobs::JobStatus)> on_job_status;
};

// The job's status is the one list and get show of the job object (jobs::object_status):
// FAILED ends the wait with Error(JobFailed), SUCCEEDED ends it; --wait=finished prints every
// other status it sees. Returns RUNNING (the pods run) or SUCCEEDED. Throws Error(Timeout)
// when the timeout passes first, Error(Unschedulable) instead when by then a pod or PodGroup
// of the job is unschedulable (jobs/unschedulable.h), Error(JobDeleted) when the job is
// deleted while waiting.
jobs::JobStatus wait_for_job(kube::Client& client, const jobs::JobKind& kind, const std::string& namespace_,
                             const std::string& name, const WaitOptions& options);

// How `trainctl wait` ended: its result, the job's status then, and the wait's error.
struct WaitOutcome {
  // succeeded | running | failed | timeout | unschedulable | deleted
  std::string result;
  // The job's status as list shows it when the wait ended, from the last time the wait read the
  // job object; nullopt once the job is deleted.
  std::optional<jobs::JobStatus> status;
  // The error the wait ended with (an outcome of the job: failed, timed out, unschedulable,
  // deleted), for the caller to rethrow once it has said how the wait ended.
  std::exception_ptr error;
};

// wait_for_job, and how it ended. An error that is not an outcome of the job (server,
// transport) is thrown as it is.
WaitOutcome wait_outcome(kube::Client& client, const jobs::JobKind& kind, const std::string& namespace_,
                         const std::string& name, WaitOptions options);

}  // namespace trainctl::submit
