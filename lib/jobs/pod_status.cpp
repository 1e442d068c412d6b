#include "jobs/pod_status.h"

#include "jobs/json_util.h"

namespace trainctl::jobs {

namespace {

using nlohmann::json;

long long num(const json& obj, const char* key) {
  const json& v = at(obj, key);
  return v.is_number() ? v.get<long long>() : 0;
}

bool boolean(const json& obj, const char* key) {
  const json& v = at(obj, key);
  return v.is_boolean() && v.get<bool>();
}

ContainerStateFacts container_facts(const json& c) {
  ContainerStateFacts f;
  f.name = str(c, "name");
  const json& state = at(c, "state");
  const json& terminated = at(state, "terminated");
  const json& waiting = at(state, "waiting");
  f.terminated = terminated.is_object();
  f.exit_code = num(terminated, "exitCode");
  f.signal = num(terminated, "signal");
  f.terminated_reason = str(terminated, "reason");
  f.waiting = waiting.is_object();
  f.waiting_reason = str(waiting, "reason");
  f.running = at(state, "running").is_object();
  f.started = boolean(c, "started");
  f.ready = boolean(c, "ready");
  f.restart_count = num(c, "restartCount");
  return f;
}

// A sidecar: an init container with restartPolicy Always.
bool restartable_init(const PodStatusFacts& pod, const std::string& name) {
  for (const auto& [n, always] : pod.init_containers)
    if (n == name) return always;
  return false;
}

std::string exit_reason(const std::string& prefix, const ContainerStateFacts& c) {
  if (c.signal != 0) return prefix + "Signal:" + std::to_string(c.signal);
  return prefix + "ExitCode:" + std::to_string(c.exit_code);
}

}  // namespace

PodStatusFacts pod_status_facts(const json& pod) {
  PodStatusFacts f;
  const json& status = at(pod, "status");
  f.phase = str(status, "phase");
  f.reason = str(status, "reason");
  for (const auto& c : at(status, "conditions"))
    if (str(c, "type") == "PodScheduled" && str(c, "reason") == "SchedulingGated") f.scheduling_gated = true;
  f.initialized = condition_true(pod, "Initialized");
  f.ready = condition_true(pod, "Ready");
  f.deleting = at(at(pod, "metadata"), "deletionTimestamp").is_string();
  const json& scheduled = condition(pod, "PodScheduled");
  f.scheduled_status = str(scheduled, "status");
  f.scheduled_reason = str(scheduled, "reason");
  for (const auto& c : at(at(pod, "spec"), "initContainers"))
    f.init_containers.emplace_back(str(c, "name"), str(c, "restartPolicy") == "Always");
  for (const auto& c : at(status, "initContainerStatuses")) f.init_statuses.push_back(container_facts(c));
  for (const auto& c : at(status, "containerStatuses")) f.statuses.push_back(container_facts(c));
  return f;
}

std::string display_status(const PodStatusFacts& pod) {
  std::string reason = pod.phase;
  if (!pod.reason.empty()) reason = pod.reason;
  if (pod.scheduling_gated) reason = "SchedulingGated";

  const size_t init_count = pod.init_containers.size();
  bool initializing = false;
  size_t i = 0;
  for (const auto& c : pod.init_statuses) {
    if (c.terminated && c.exit_code == 0) {
      ++i;
      continue;
    }
    if (restartable_init(pod, c.name) && c.started) {
      ++i;
      continue;
    }
    if (c.terminated) {
      reason = c.terminated_reason.empty() ? exit_reason("Init:", c) : "Init:" + c.terminated_reason;
    } else if (c.waiting && !c.waiting_reason.empty() && c.waiting_reason != "PodInitializing") {
      reason = "Init:" + c.waiting_reason;
    } else {
      reason = "Init:" + std::to_string(i) + "/" + std::to_string(init_count);
    }
    initializing = true;
    break;
  }

  if (!initializing || pod.initialized) {
    bool has_running = false;
    for (auto it = pod.statuses.rbegin(); it != pod.statuses.rend(); ++it) {
      const ContainerStateFacts& c = *it;
      if (c.waiting && !c.waiting_reason.empty()) {
        reason = c.waiting_reason;
      } else if (c.terminated && !c.terminated_reason.empty()) {
        reason = c.terminated_reason;
      } else if (c.terminated) {
        reason = exit_reason("", c);
      } else if (c.ready && c.running) {
        has_running = true;
      }
    }
    if (reason == "Completed" && has_running) reason = pod.ready ? "Running" : "NotReady";
  }

  // Being deleted: Terminating, unless the pod has ended already (printPod in
  // k8s.io/kubernetes pkg/printers/internalversion/printers.go: !IsPodPhaseTerminal).
  if (pod.deleting) {
    if (pod.reason == "NodeLost")
      reason = "Unknown";
    else if (pod.phase != "Succeeded" && pod.phase != "Failed")
      reason = "Terminating";
  }
  return reason;
}

std::string pod_display_status(const json& pod) { return display_status(pod_status_facts(pod)); }

int restarts(const PodStatusFacts& pod) {
  long long n = 0;
  for (const auto& c : pod.statuses) n += c.restart_count;
  return static_cast<int>(n);
}

int pod_restarts(const json& pod) {
  long long n = 0;
  for (const auto& c : at(at(pod, "status"), "containerStatuses")) n += num(c, "restartCount");
  return static_cast<int>(n);
}

}  // namespace trainctl::jobs
