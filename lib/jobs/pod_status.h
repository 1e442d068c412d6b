// A pod's status as `kubectl get pods` prints it (printPod in kubectl's printers):
// Init:0/1, Init:CrashLoopBackOff, PodInitializing, ContainerCreating, Running, Completed,
// Error, CrashLoopBackOff, OOMKilled, Terminating, Unknown, SchedulingGated, Pending...
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace trainctl::jobs {

std::string pod_display_status(const nlohmann::json& pod);

// Sum of container restart counts, as kubectl's RESTARTS column.
int pod_restarts(const nlohmann::json& pod);

}  // namespace trainctl::jobs
