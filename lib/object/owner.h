// Owner references as apimachinery's pkg/apis/meta/v1/controller_ref.go reads and writes them
// (NewControllerRef, GetControllerOf, IsControlledBy).
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

namespace trainctl::object {

// A reference to owner (its apiVersion, kind, name and uid) with blockOwnerDeletion set, as
// NewControllerRef makes it; `controller` false makes a plain owner reference.
nlohmann::json owner_reference(const nlohmann::json& owner, bool controller = true);
// The ownerReference of obj with controller true, or nullptr (GetControllerOf).
const nlohmann::json* controller_of(const nlohmann::json& obj);
// Whether obj's controller reference names that uid (IsControlledBy; an empty uid never).
bool controlled_by(const nlohmann::json& obj, std::string_view uid);
// Whether any ownerReference of obj, controller or not, names that uid (an empty uid never).
bool has_owner(const nlohmann::json& obj, std::string_view uid);

}  // namespace trainctl::object
