// Reads several collections and objects in one round trip: the first requests go out
// together through Client::send_all; lists that have more pages (limit/continue) are
// finished one page after another.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kube/client.h"

namespace trainctl::jobs {

inline constexpr int kPageSize = 500;

struct Read {
  std::string path;  // with its query string (labelSelector=...), without limit
  bool list = true;  // a collection (paged) or one object
};

struct ReadResult {
  bool not_found = false;             // 404: no such object, or the resource is not served
  std::vector<nlohmann::json> items;  // list items
  nlohmann::json object;              // the object of a single read
};

// Sends the reads in parallel. A 404 marks its result not_found; any other failure is
// rethrown (the first one, in request order).
std::vector<ReadResult> read_all(kube::Client& client, const std::vector<Read>& reads,
                                 int page_size = kPageSize);

}  // namespace trainctl::jobs
