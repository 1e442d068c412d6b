#include "kubesim/controllers/job_conditions.h"

#include "object/fields.h"

namespace kubesim {

using nlohmann::json;

bool update_job_condition(json& status, const std::string& type, const std::string& reason,
                          const std::string& message, const std::string& now) {
  if (!status.contains("conditions") || !status["conditions"].is_array())
    status["conditions"] = json::array();
  if (const json& same = trainctl::object::find_condition(status["conditions"], type);
      trainctl::object::str(same, "status") == "True" && trainctl::object::str(same, "reason") == reason)
    return false;
  json out = json::array();
  std::string transition = now;
  for (auto c : status["conditions"]) {
    const std::string t = c.value("type", "");
    if ((type == "Restarting" && t == "Running") || (type == "Running" && t == "Restarting")) continue;
    if (t == type) {
      if (c.value("status", "") == "True") transition = c.value("lastTransitionTime", now);
      continue;
    }
    if ((type == "Failed" || type == "Succeeded") && t == "Running" && c.value("status", "") != "False") {
      c["status"] = "False";
      c["lastTransitionTime"] = now;
      c["lastUpdateTime"] = now;
    }
    out.push_back(c);
  }
  out.push_back({{"type", type},
                 {"status", "True"},
                 {"reason", reason},
                 {"message", message},
                 {"lastUpdateTime", now},
                 {"lastTransitionTime", transition}});
  status["conditions"] = out;
  return true;
}

bool update_training_condition(json& status, const std::string& type, const std::string& reason,
                               const std::string& message, const std::string& now) {
  if (status_condition_true(status, "Failed"))
    return false;  // "Do nothing if JobStatus have failed condition"
  return update_job_condition(status, type, reason, message, now);
}

bool status_condition_true(const json& status, const std::string& type) {
  return trainctl::object::is_condition_true(trainctl::object::at(status, "conditions"), type);
}

bool job_finished(const json& obj) {
  return trainctl::object::condition_true(obj, "Succeeded") ||
         trainctl::object::condition_true(obj, "Failed");
}

}  // namespace kubesim
