#include "jobs/diagnose/root_cause.h"

#include <algorithm>
#include <sstream>

#include "core/errors.h"
#include "core/log.h"
#include "jobs/json_util.h"
#include "jobs/legacy_pods.h"
#include "jobs/logs/pod_logs.h"
#include "jobs/replica.h"
#include "jobs/status_rules.h"
#include "kube/list_reads.h"

namespace trainctl::jobs {

using nlohmann::json;

namespace {

// The status of the pod's framework container: the kind's container name, else the first.
const json& framework_status(const JobKind& kind, const json& pod) {
  const json& all = at_path(pod, {"status", "containerStatuses"});
  static const json none;
  if (!all.is_array() || all.empty()) return none;
  if (!kind.framework_container.empty())
    for (const auto& s : all)
      if (str(s, "name") == kind.framework_container) return s;
  return all.front();
}

// The replica as logs --all names it (replica.h: worker-1, launcher-0, node-1 of a TrainJob),
// else the pod name after "JOB-".
std::string replica_name(const JobKind& kind, const std::string& job, const json& pod) {
  return jobs::replica_of(kind, job, pod).label;
}

int int_of(const json& v) { return v.is_number_integer() ? v.get<int>() : 0; }

void take_terminated(Failure& f, const json& t) {
  f.exit_code = int_of(at(t, "exitCode"));
  f.reason = str(t, "reason");
  f.message = str(t, "message");
  f.finished_at = str(t, "finishedAt");
}

// A pod that explains a failure, or nullopt. Pod-level reasons (the kubelet's eviction, the
// pod's own activeDeadlineSeconds) and preemption name the failure even when the container
// terminated too: kubelet pkg/kubelet/eviction/eviction_manager.go evictPod sets phase Failed,
// reason "Evicted" and the message; the scheduler's preemption adds the DisruptionTarget
// condition with reason PreemptionByScheduler (pkg/scheduler/framework/preemption).
std::optional<Failure> pod_failure(const JobKind& kind, const std::string& job, const json& pod) {
  const json& status = framework_status(kind, pod);
  Failure f;
  f.pod = name_of(pod);
  f.replica = replica_name(kind, job, pod);
  f.container = str(status, "name");
  f.restarts = int_of(at(status, "restartCount"));
  const json& now = at_path(status, {"state", "terminated"});
  const json& before = at_path(status, {"lastState", "terminated"});
  bool found = false;
  if (now.is_object() && int_of(at(now, "exitCode")) != 0) {
    take_terminated(f, now);
    found = true;
  } else if (before.is_object() && int_of(at(before, "exitCode")) != 0) {
    take_terminated(f, before);
    // Its log: while the container waits to restart (CrashLoopBackOff) the current log is the
    // terminated one's; once it runs again, that one is the previous (kubelet
    // pkg/kubelet/kubelet_pods.go validateContainerLogStatus).
    f.previous = at(at(status, "state"), "running").is_object();
    found = true;
  }
  const json& pod_status = at(pod, "status");
  const std::string phase = str(pod_status, "phase");
  const json& disruption = condition(pod, "DisruptionTarget");
  if (phase == "Failed" && !str(pod_status, "reason").empty()) {
    f.reason = str(pod_status, "reason");
    f.message = str(pod_status, "message");
    found = true;
  } else if (str(disruption, "status") == "True" && str(disruption, "reason") == "PreemptionByScheduler") {
    f.reason = "Preempted";
    f.message = str(disruption, "message");
    found = true;
  }
  if (!found) return std::nullopt;
  if (f.finished_at.empty()) f.finished_at = str(disruption, "lastTransitionTime");
  if (f.finished_at.empty()) f.finished_at = str(condition(pod, "Ready"), "lastTransitionTime");
  return f;
}

}  // namespace

std::string job_failure_reason(const ObjectFailure& c) {
  std::string reason = c.reason;
  const std::string& message = c.message;
  if (auto slash = reason.find('/'); slash != std::string::npos) reason.resize(slash);
  if (message.find("reached the specified backoff limit") != std::string::npos) return "BackoffLimitExceeded";
  if (message.find("active longer than specified deadline") != std::string::npos) return "DeadlineExceeded";
  return reason;
}

std::optional<Failure> root_cause(const JobKind& kind, const json& job, const std::vector<json>& pods) {
  const std::string name = name_of(job);
  std::optional<Failure> first;
  for (const auto& pod : pods) {
    auto f = pod_failure(kind, name, pod);
    if (!f) continue;
    // RFC 3339 in UTC from one server sorts as text; a candidate without a time goes last.
    auto key = [](const Failure& x) { return std::make_tuple(x.finished_at.empty(), x.finished_at, x.pod); };
    if (!first || key(*f) < key(*first)) first = std::move(f);
  }
  const auto c = object_failure(kind, job);
  if (first) {
    if (first->message.empty() && c) first->message = c->message;
    return first;
  }
  if (!c) return std::nullopt;
  Failure f;
  f.reason = job_failure_reason(*c);
  f.message = c->message;
  f.finished_at = c->since;
  return f;
}

std::optional<Failure> find_failure(kube::Client& client, const JobKind& kind, const std::string& ns,
                                    const std::string& name, int tail) {
  kube::ListQuery pods_query;
  pods_query.label_selector = kind.pod_selector(name);
  const auto r = kube::read_all(client, {{kind.resource.object_path(ns, name), false, {}},
                                         {kube::pods().collection_path(ns), true, pods_query}});
  if (r[0].not_found) return std::nullopt;
  // No pod of the current labels: an older release's (legacy_pods.h), if any.
  auto f = root_cause(kind, r[0].object, r[1].items.empty() ? read_legacy_pods(client, kind, ns, name) : r[1].items);
  if (!f || f->pod.empty() || tail <= 0) return f;
  LogOptions l;
  l.ns = ns;
  l.pod = f->pod;
  l.container = f->container;
  l.tail = tail;
  l.previous = f->previous;
  try {
    std::ostringstream out;
    read_logs(client, l, out);
    std::istringstream in(out.str());
    for (std::string line; std::getline(in, line);) f->log_tail.push_back(line);
  } catch (const Error& e) {
    log::debug("no log of {}/{}: {}", f->pod, f->container, e.what());
  }
  return f;
}

}  // namespace trainctl::jobs
