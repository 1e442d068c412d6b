#include "jobs/pod_status.h"

#include "jobs/json_util.h"

namespace trainctl::jobs {

namespace {

using nlohmann::json;

long long num(const json& obj, const char* key) {
  const json& v = at(obj, key);
  return v.is_number() ? v.get<long long>() : 0;
}

// A sidecar: an init container with restartPolicy Always.
bool restartable_init(const json& pod, const std::string& name) {
  for (const auto& c : at(at(pod, "spec"), "initContainers"))
    if (str(c, "name") == name) return str(c, "restartPolicy") == "Always";
  return false;
}

std::string exit_reason(const std::string& prefix, const json& terminated) {
  if (long long sig = num(terminated, "signal"); sig != 0) return prefix + "Signal:" + std::to_string(sig);
  return prefix + "ExitCode:" + std::to_string(num(terminated, "exitCode"));
}

}  // namespace

std::string pod_display_status(const json& pod) {
  const json& status = at(pod, "status");
  std::string reason = str(status, "phase");
  if (!str(status, "reason").empty()) reason = str(status, "reason");

  for (const auto& c : at(status, "conditions"))
    if (str(c, "type") == "PodScheduled" && str(c, "reason") == "SchedulingGated") reason = "SchedulingGated";

  const json& init_statuses = at(status, "initContainerStatuses");
  const size_t init_count = at(at(pod, "spec"), "initContainers").size();
  bool initializing = false;
  size_t i = 0;
  for (const auto& c : init_statuses) {
    const json& state = at(c, "state");
    const json& terminated = at(state, "terminated");
    const json& waiting = at(state, "waiting");
    if (terminated.is_object() && num(terminated, "exitCode") == 0) {
      ++i;
      continue;
    }
    if (restartable_init(pod, str(c, "name")) && at(c, "started").is_boolean() &&
        at(c, "started").get<bool>()) {
      ++i;
      continue;
    }
    if (terminated.is_object()) {
      reason = str(terminated, "reason").empty() ? exit_reason("Init:", terminated)
                                                 : "Init:" + str(terminated, "reason");
    } else if (waiting.is_object() && !str(waiting, "reason").empty() &&
               str(waiting, "reason") != "PodInitializing") {
      reason = "Init:" + str(waiting, "reason");
    } else {
      reason = "Init:" + std::to_string(i) + "/" + std::to_string(init_count);
    }
    initializing = true;
    break;
  }

  if (!initializing || condition_true(pod, "Initialized")) {
    bool has_running = false;
    const json& statuses = at(status, "containerStatuses");
    for (auto it = statuses.rbegin(); it != statuses.rend(); ++it) {
      const json& state = at(*it, "state");
      const json& waiting = at(state, "waiting");
      const json& terminated = at(state, "terminated");
      if (waiting.is_object() && !str(waiting, "reason").empty()) {
        reason = str(waiting, "reason");
      } else if (terminated.is_object() && !str(terminated, "reason").empty()) {
        reason = str(terminated, "reason");
      } else if (terminated.is_object()) {
        reason = exit_reason("", terminated);
      } else if (at(*it, "ready").is_boolean() && at(*it, "ready").get<bool>() &&
                 at(state, "running").is_object()) {
        has_running = true;
      }
    }
    if (reason == "Completed" && has_running)
      reason = condition_true(pod, "Ready") ? "Running" : "NotReady";
  }

  // Being deleted: Terminating, unless the pod has ended already (printPod in
  // k8s.io/kubernetes pkg/printers/internalversion/printers.go: !IsPodPhaseTerminal).
  const json& meta = at(pod, "metadata");
  const std::string phase = str(status, "phase");
  if (at(meta, "deletionTimestamp").is_string()) {
    if (str(status, "reason") == "NodeLost")
      reason = "Unknown";
    else if (phase != "Succeeded" && phase != "Failed")
      reason = "Terminating";
  }
  return reason;
}

int pod_restarts(const json& pod) {
  long long n = 0;
  for (const auto& c : at(at(pod, "status"), "containerStatuses")) n += num(c, "restartCount");
  return static_cast<int>(n);
}

}  // namespace trainctl::jobs
