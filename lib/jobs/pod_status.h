// A pod's status as `kubectl get pods` prints it (printPod in kubectl's printers):
// Init:0/1, Init:CrashLoopBackOff, PodInitializing, ContainerCreating, Running, Completed,
// Error, CrashLoopBackOff, OOMKilled, Terminating, Unknown, SchedulingGated, Pending...
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace trainctl::jobs {

// One entry of status.initContainerStatuses or status.containerStatuses, as the status rule
// reads it. Numbers that are not numbers read 0, booleans that are not booleans false.
struct ContainerStateFacts {
  std::string name;
  bool terminated = false;  // state.terminated is an object
  long long exit_code = 0;  // state.terminated.exitCode
  long long signal = 0;     // state.terminated.signal
  std::string terminated_reason;
  bool waiting = false;  // state.waiting is an object
  std::string waiting_reason;
  bool running = false;  // state.running is an object
  bool started = false;
  bool ready = false;
  long long restart_count = 0;
};

// What the status rule reads of a pod. pod_status_facts fills it from the object; the list's
// reader of list pages (pod_summary_read.cpp) from the page it parsed.
struct PodStatusFacts {
  std::string phase;   // status.phase
  std::string reason;  // status.reason
  bool scheduling_gated = false;  // a PodScheduled condition with reason SchedulingGated
  bool initialized = false;       // the Initialized condition is True
  bool ready = false;             // the Ready condition is True
  bool deleting = false;          // metadata.deletionTimestamp is set
  // The first PodScheduled condition's status and reason (pending_reason.h).
  std::string scheduled_status;
  std::string scheduled_reason;
  // spec.initContainers: name, and whether restartPolicy is Always (a sidecar).
  std::vector<std::pair<std::string, bool>> init_containers;
  std::vector<ContainerStateFacts> init_statuses;
  std::vector<ContainerStateFacts> statuses;
};

PodStatusFacts pod_status_facts(const nlohmann::json& pod);
std::string display_status(const PodStatusFacts& pod);

std::string pod_display_status(const nlohmann::json& pod);

// Sum of container restart counts, as kubectl's RESTARTS column.
int pod_restarts(const nlohmann::json& pod);
int restarts(const PodStatusFacts& pod);
// pod_pending_reason (pending_reason.h) of these facts.
std::string pod_pending_reason(const PodStatusFacts& pod);

}  // namespace trainctl::jobs
