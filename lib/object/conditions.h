// Status conditions, read as apimachinery's pkg/api/meta/conditions.go reads them
// (FindStatusCondition: the first entry of that type; IsStatusConditionTrue: its status is
// "True"). Jobs, pods, nodes, PodGroups, Workloads and JobSets all keep theirs in
// status.conditions.
#pragma once

#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace trainctl::object {

// The entry of that type in a conditions array, or a null value.
const nlohmann::json& find_condition(const nlohmann::json& conditions, std::string_view type);
// Whether the conditions array has an entry of that type with status "True".
bool is_condition_true(const nlohmann::json& conditions, std::string_view type);

// When the first condition of one of `types` whose status is "True" last changed (its
// lastTransitionTime), or "" when none is. The TTL-after-finished controllers read a finish
// time so: kubernetes pkg/controller/ttlafterfinished/ttlafterfinished_controller.go
// jobFinishTime (Complete or Failed), jobset pkg/controllers/ttl_after_finished.go.
std::string true_since(const nlohmann::json& conditions, std::initializer_list<std::string_view> types);

// The same on an object: its status.conditions.
const nlohmann::json& condition(const nlohmann::json& obj, std::string_view type);
bool condition_true(const nlohmann::json& obj, std::string_view type);

}  // namespace trainctl::object
