#include "kube/page_stream.h"

#include <array>

#include "core/errors.h"

namespace trainctl::kube {

using nlohmann::json;

namespace {

// Item keys (depth counted from the item's own object = 2) that nothing reads. Labels and
// annotations sit at depth 5, so a label that happens to share one of these names is kept.
bool skipped_key(int depth, const std::string& key) {
  if (depth == 4) {
    // metadata.managedFields, spec.volumes, status.images (nodes), metadata.ownerReferences
    static const std::array<const char*, 4> keys = {"managedFields", "volumes", "images", "ownerReferences"};
    for (const char* k : keys)
      if (key == k) return true;
    return false;
  }
  if (depth == 5) return key == "kubectl.kubernetes.io/last-applied-configuration";
  if (depth >= 6) {
    // Container fields of pods and of job templates.
    static const std::array<const char*, 8> keys = {"env",     "envFrom",        "command",        "args",
                                                    "volumeMounts", "livenessProbe", "readinessProbe",
                                                    "startupProbe"};
    for (const char* k : keys)
      if (key == k) return true;
  }
  return false;
}

[[noreturn]] void not_json(const std::string& what, const json::parse_error& e) {
  // e.what() is the JSON library's own text ("[json.exception.parse_error.101] ..."): the
  // position is what helps.
  throw Error("the server's answer to " + what + " is not JSON (unreadable at byte " + std::to_string(e.byte) + ")");
}

}  // namespace

PageInfo parse_list_page(std::string_view body, const ItemHandler& on_item, const std::string& what) {
  PageInfo info;
  std::string top_key;
  bool in_items = false;
  // Item depth: the list object is depth 0, its keys depth 1, an item object ends at depth 2.
  auto filter = [&](int depth, json::parse_event_t event, json& parsed) -> bool {
    switch (event) {
      case json::parse_event_t::key:
        if (depth == 1) {
          top_key = parsed.get<std::string>();
          return true;
        }
        return !(in_items && skipped_key(depth, parsed.get_ref<const std::string&>()));
      case json::parse_event_t::array_start:
        if (depth == 1 && top_key == "items") in_items = true;
        return true;
      case json::parse_event_t::array_end:
        if (depth == 1) in_items = false;
        return true;
      case json::parse_event_t::object_end:
        if (in_items && depth == 2) {
          ++info.items;
          on_item(parsed);
          return false;  // dropped: the items array stays empty
        }
        if (depth == 1 && top_key == "metadata") {
          info.continue_token = parsed.value("continue", "");
          info.resource_version = parsed.value("resourceVersion", "");
        }
        return true;
      default:
        return true;
    }
  };
  try {
    const json rest = json::parse(body.begin(), body.end(), filter);  // the list without its items
    (void)rest;
  } catch (const json::parse_error& e) {
    not_json(what, e);
  }
  return info;
}

json parse_object(std::string_view body, const std::string& what) {
  // The object is depth 0; give its keys the depths they have inside a list.
  auto filter = [](int depth, json::parse_event_t event, json& parsed) -> bool {
    if (event != json::parse_event_t::key) return true;
    return !skipped_key(depth + 2, parsed.get_ref<const std::string&>());
  };
  try {
    return json::parse(body.begin(), body.end(), filter);
  } catch (const json::parse_error& e) {
    not_json(what, e);
  }
}

}  // namespace trainctl::kube
