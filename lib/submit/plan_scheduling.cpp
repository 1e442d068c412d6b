// The part of make_plan about how the job runs and is scheduled: retries, deadlines, clean-up,
// priority, scheduler, shared memory, gang scheduling and queues, MPI's launcher and slots.
#include <algorithm>

#include "core/errors.h"
#include "submit/parse.h"
#include "submit/plan.h"
#include "submit/submit_kind.h"

namespace trainctl::submit {

namespace {

void plan_run_policy(const SubmitOptions& o, Plan& p) {
  const SubmitKind::Rules& rules = p.submit_kind->rules;
  p.retry = o.retry;
  if (!o.running_timeout.empty()) {
    auto s = parse_seconds("--running-timeout", o.running_timeout);
    if (s > 0) p.active_deadline_seconds = s;
  }
  if (!o.ttl_after_finished.empty()) {
    auto s = parse_seconds("--ttl-after-finished", o.ttl_after_finished);
    if (s > 0) p.ttl_seconds_after_finished = s;
  }
  p.clean_pod_policy = o.clean_task_policy.empty() ? rules.default_clean_pod_policy : o.clean_task_policy;
  if (p.clean_pod_policy != "Running" && p.clean_pod_policy != "All" && p.clean_pod_policy != "None")
    throw UsageError("invalid --clean-task-policy " + dq(p.clean_pod_policy) + ": use Running, All or None");
  if (!o.priority.empty() && !is_dns1123_subdomain(o.priority))
    throw UsageError("invalid --priority " + dq(o.priority) + ": give a PriorityClass name");
  p.priority = o.priority;
  p.scheduler = o.scheduler;
  if (!o.scheduler.empty() && !is_dns1123_subdomain(o.scheduler))
    throw UsageError("invalid --scheduler " + dq(o.scheduler));
  // Shared memory: pytorch and mpi mount /dev/shm (2Gi by default; submit mpi --gputopology
  // takes it off again).
  if (rules.shm) p.shm_size = o.shm_size.empty() ? "2Gi" : o.shm_size;
}

// --kueue-queue: only the label. Kueue's job webhook suspends a job that carries it
// (jobframework/defaults.go ApplyDefaultForSuspend: WorkloadShouldBeSuspended is true for a
// job with a queue name), so the manifest sets no suspend of its own.
void plan_kueue(const SubmitOptions& o, Plan& p) {
  if (o.kueue_queue.empty()) return;
  if (!p.submit_kind->rules.no_kueue_reason.empty()) throw UsageError(p.submit_kind->rules.no_kueue_reason);
  // A LocalQueue name is an object name that is also a label value (at most 63 characters).
  if (!is_dns1123_label(o.kueue_queue))
    throw UsageError("invalid --kueue-queue " + dq(o.kueue_queue) +
                     ": give a LocalQueue name (lower-case letters, digits, '-', at most 63)");
  p.kueue_queue = o.kueue_queue;
}

}  // namespace

// pytorch and mpi: the operator's runPolicy.schedulingPolicy (and the coscheduling labels).
void plan_worker_gang(const SubmitOptions& o, Plan& p) {
  const SubmitKind::Rules& rules = p.submit_kind->rules;
  // --queue alone (or =true) is Arena's kube-queue switch (add_implicit_annotations);
  // --queue=NAME names the gang scheduler's queue.
  const bool named_queue = !o.queue.empty() && o.queue != "true" && o.queue != "false";
  p.gang = o.gang;
  p.scheduling_policy =
      o.gang || o.min_available > 0 || named_queue || !o.schedule_timeout.empty() || !p.min_resources.empty();
  if (!o.schedule_timeout.empty())
    p.schedule_timeout_seconds = parse_seconds("--schedule-timeout", o.schedule_timeout);
  p.queue = named_queue ? o.queue : "";
  p.expected_pods = p.submit_kind->expected_pods(o, p);
  p.min_available_given = o.min_available > 0;
  p.min_available = o.min_available > 0 ? o.min_available : default_min_available(p);
  if (rules.launcher_pods > 0 && p.min_available > p.expected_pods)
    throw UsageError("--min-available " + std::to_string(p.min_available) + " is more than the " +
                     std::to_string(p.expected_pods) + " pods of the job (" + std::to_string(o.workers) +
                     " workers and the launcher): a gang that waits for them never forms; use at most " +
                     std::to_string(p.expected_pods));
  if (!rules.no_gang_reason.empty() && (p.scheduling_policy || o.queue == "true"))
    throw UsageError(rules.no_gang_reason);
}

int default_min_available(const Plan& p) { return p.submit_kind->default_min_available(p); }

void plan_scheduling(const SubmitOptions& o, Plan& p) {
  plan_run_policy(o, p);
  plan_kueue(o, p);
  p.min_resources = key_values("--min-resources", o.min_resources, false, false);
  for (const auto& r : p.min_resources) check_quantity("--min-resources " + r.key, r.value);
  p.submit_kind->plan_gang(o, p);
}

}  // namespace trainctl::submit
