// Job conditions as kubeflow's training-operator and mpi-operator keep them
// (commonutil.UpdateJobConditions): one condition per type; setting Running drops
// Restarting and vice versa; Succeeded/Failed turn Running to status "False".
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "object/conditions.h"

namespace kubesim {

// Returns false (and changes nothing) when the condition already holds with that reason.
bool update_job_condition(nlohmann::json& status, const std::string& type, const std::string& reason,
                          const std::string& message, const std::string& now);
// training-operator's setCondition (pkg/util/status.go): as update_job_condition, but a job
// with a true Failed condition keeps its conditions as they are.
bool update_training_condition(nlohmann::json& status, const std::string& type, const std::string& reason,
                               const std::string& message, const std::string& now);
// Whether a job's status (not the whole object) has a true condition of that type.
bool status_condition_true(const nlohmann::json& status, const std::string& type);
// Succeeded or Failed.
bool job_finished(const nlohmann::json& obj);

}  // namespace kubesim
