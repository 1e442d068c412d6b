// Why a job failed: the first of its replicas that failed, with its framework container's exit
// code, reason and last log lines; or, when no pod tells (pods cleaned up, deadline), the job's
// own Failed condition. get, wait, submit --wait=finished and logs -f show it.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "jobs/kind.h"
#include "jobs/status_rules.h"
#include "kube/client.h"

namespace trainctl::jobs {

struct Failure {
  std::string replica;  // as logs --all names it (replica.h): worker-1, launcher-0, node-1; "" for the job
  std::string pod;
  std::string container;
  std::optional<int> exit_code;
  // OOMKilled, Error (the container's terminated reason), Evicted (the pod's status.reason),
  // Preempted, DeadlineExceeded, BackoffLimitExceeded, or the job condition's own reason.
  std::string reason;
  std::string message;
  int restarts = 0;
  std::string finished_at;  // RFC 3339, as the server wrote it
  bool previous = false;    // its log is the previous container's: it has been restarted since
  std::vector<std::string> log_tail;
};

// The root cause from the job object and its pods, without logs. Candidates are pods whose
// framework container (JobKind::framework_container, else the first) terminated with a
// non-zero exit code, now or before its last restart (lastState), and Failed pods whose
// status.reason says why (Evicted by the kubelet, DeadlineExceeded) or that the scheduler
// preempted (DisruptionTarget PreemptionByScheduler). The earliest finishedAt wins, ties by
// pod name. Without a candidate, the kind's failure rule on the job (object_failure,
// status_rules.h: a Failed condition, Volcano's Failed, Aborted or Terminated phase...);
// nullopt when there is neither. A job-level reason from the condition (backoff limit, deadline) is kept in
// `message` when the pod has none of its own.
std::optional<Failure> root_cause(const JobKind& kind, const nlohmann::json& job,
                                  const std::vector<nlohmann::json>& pods);

// The job-level reason of an object's failure: batch Job and MPIJob reasons as they are
// (BackoffLimitExceeded, DeadlineExceeded; "BackoffLimitExceeded/<pod reason>" cut at '/'),
// the training-operator's "<Kind>Failed" made BackoffLimitExceeded or DeadlineExceeded from its
// message (pkg/controller.v1/common/job.go: "...reached the specified backoff limit",
// "...active longer than specified deadline").
std::string job_failure_reason(const ObjectFailure& failed);

// Reads the job, its pods and the failing container's last `tail` log lines (previous=true
// when the container has restarted since). nullopt when the job has no failure to explain.
// Errors reading the log leave log_tail empty.
std::optional<Failure> find_failure(kube::Client& client, const JobKind& kind, const std::string& ns,
                                    const std::string& name, int tail = 10);

}  // namespace trainctl::jobs
