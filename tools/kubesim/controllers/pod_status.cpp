#include "kubesim/controllers/pod_status.h"

namespace kubesim {

void set_pod_condition(nlohmann::json& status, const std::string& type, const std::string& value,
                       const std::string& reason, const std::string& message, const std::string& now) {
  if (!status.contains("conditions") || !status["conditions"].is_array())
    status["conditions"] = nlohmann::json::array();
  nlohmann::json c = {
      {"type", type}, {"status", value}, {"lastProbeTime", nullptr}, {"lastTransitionTime", now}};
  if (!reason.empty()) c["reason"] = reason;
  if (!message.empty()) c["message"] = message;
  for (auto& old : status["conditions"]) {
    if (old.value("type", "") != type) continue;
    if (old.value("status", "") == value) c["lastTransitionTime"] = old.value("lastTransitionTime", now);
    old = c;
    return;
  }
  status["conditions"].push_back(c);
}

std::string restart_policy(const nlohmann::json& pod) {
  auto spec = pod.find("spec");
  if (spec == pod.end()) return "Always";
  return spec->value("restartPolicy", "Always");
}

bool pod_terminal(const nlohmann::json& pod) {
  auto st = pod.find("status");
  if (st == pod.end() || !st->is_object()) return false;
  const std::string phase = st->value("phase", "");
  return phase == "Succeeded" || phase == "Failed";
}

}  // namespace kubesim
