#include "object/owner.h"

#include "object/fields.h"
#include "object/meta.h"

namespace trainctl::object {

nlohmann::json owner_reference(const nlohmann::json& owner, bool controller) {
  return {{"apiVersion", str(owner, "apiVersion")},
          {"kind", str(owner, "kind")},
          {"name", name_of(owner)},
          {"uid", uid_of(owner)},
          {"controller", controller},
          {"blockOwnerDeletion", true}};
}

const nlohmann::json* controller_of(const nlohmann::json& obj) {
  for (const auto& ref : at_path(obj, {"metadata", "ownerReferences"})) {
    const auto& c = at(ref, "controller");
    if (c.is_boolean() && c.get<bool>()) return &ref;
  }
  return nullptr;
}

bool controlled_by(const nlohmann::json& obj, std::string_view uid) {
  const nlohmann::json* ref = controller_of(obj);
  return ref && !uid.empty() && str(*ref, "uid") == uid;
}

bool has_owner(const nlohmann::json& obj, std::string_view uid) {
  if (uid.empty()) return false;
  for (const auto& ref : at_path(obj, {"metadata", "ownerReferences"}))
    if (str(ref, "uid") == uid) return true;
  return false;
}

}  // namespace trainctl::object
