// Parses one page of a Kubernetes list as it reads it: each element of the top-level
// "items" array is handed over as soon as it is complete and then dropped, so a page never
// exists as a whole parsed document. Keys no command reads (managedFields, container env,
// volumes, node images...) are skipped while parsing.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace trainctl::kube {

// Receives one list item; it may move from it.
using ItemHandler = std::function<void(nlohmann::json& item)>;

struct PageInfo {
  std::string continue_token;    // metadata.continue, "" on the last page
  std::string resource_version;  // metadata.resourceVersion
  size_t items = 0;              // how many items were handed over
};

// Throws Error naming `what` when the body is not JSON.
PageInfo parse_list_page(std::string_view body, const ItemHandler& on_item, const std::string& what);

// Parses a single object with the same key filter.
nlohmann::json parse_object(std::string_view body, const std::string& what);

}  // namespace trainctl::kube
