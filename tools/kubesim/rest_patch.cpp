// JSON merge patch (RFC 7386), a strategic merge patch that merges lists of objects by
// their merge key (name, containerPort, ...), and JSON patch (RFC 6902).
#include "kubesim/rest.h"

namespace kubesim {

namespace {

// RFC 7386 MergePatch's first steps, which the strategic merge patch shares: a patch that is
// not an object replaces the target (false: nothing left to merge), and a target that is not
// an object becomes an empty one.
bool merges_into(json& target, const json& patch) {
  if (!patch.is_object()) {
    target = patch;
    return false;
  }
  if (!target.is_object()) target = json::object();
  return true;
}

const char* merge_key(const json& list) {
  for (const auto& e : list) {
    if (!e.is_object()) return nullptr;
    for (const char* k : {"name", "containerPort", "mountPath", "devicePath", "ip", "type", "topologyKey", "port"})
      if (e.contains(k)) return k;
  }
  return nullptr;
}

}  // namespace

void merge_patch(json& target, const json& patch) {
  if (!merges_into(target, patch)) return;
  for (const auto& [k, v] : patch.items()) {
    if (v.is_null()) target.erase(k);
    else merge_patch(target[k], v);
  }
}

void strategic_merge_patch(json& target, const json& patch) {
  if (!merges_into(target, patch)) return;
  for (const auto& [k, v] : patch.items()) {
    if (k.rfind("$setElementOrder/", 0) == 0 || k == "$retainKeys" || k.rfind("$deleteFromPrimitiveList/", 0) == 0)
      continue;
    if (k == "$patch") continue;
    if (v.is_null()) {
      target.erase(k);
    } else if (v.is_object() && v.value("$patch", "") == "replace") {
      json r = v;
      r.erase("$patch");
      target[k] = r;
    } else if (v.is_object() && v.value("$patch", "") == "delete") {
      target.erase(k);
    } else if (v.is_array() && target.contains(k) && target[k].is_array()) {
      const char* key = merge_key(v);
      const char* tkey = merge_key(target[k]);
      if (!key || (tkey && std::string(key) != tkey)) {
        target[k] = v;
        continue;
      }
      json& tl = target[k];
      for (const auto& pe : v) {
        bool del = pe.value("$patch", "") == "delete";
        bool found = false;
        for (size_t i = 0; i < tl.size(); ++i) {
          if (tl[i].is_object() && tl[i].contains(key) && tl[i][key] == pe[key]) {
            if (del) tl.erase(tl.begin() + static_cast<std::ptrdiff_t>(i));
            else strategic_merge_patch(tl[i], pe);
            found = true;
            break;
          }
        }
        if (!found && !del) tl.push_back(pe);
      }
    } else {
      strategic_merge_patch(target[k], v);
    }
  }
}

void json_patch(json& target, const json& ops) {
  if (!ops.is_array()) throw bad_request("json patch must be an array of operations");
  try {
    target = target.patch(ops);
  } catch (const json::exception& e) {
    throw StatusError(422, "Invalid", std::string("the server rejected our request due to an error in our request: ") + e.what());
  }
}

}  // namespace kubesim
