// Small helpers for pod status fields shared by the kubelet and the scheduler.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace kubesim {

// Sets (or replaces) the pod condition of type; lastTransitionTime only moves when the
// status changes. reason/message are omitted when empty.
void set_pod_condition(nlohmann::json& status, const std::string& type, const std::string& value,
                       const std::string& reason, const std::string& message, const std::string& now);

// The restartPolicy of a pod spec ("Always" when unset, as the API server defaults it).
std::string restart_policy(const nlohmann::json& pod);

bool pod_terminal(const nlohmann::json& pod);  // phase Succeeded or Failed

}  // namespace kubesim
