// Watch streams as kube-apiserver sends them, one JSON event per line (k8s.io/client-go
// rest/watch/decoder.go: ADDED, MODIFIED, DELETED, BOOKMARK, ERROR), and what client-go's
// reflector (tools/cache/reflector.go) makes of their errors.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "core/errors.h"

namespace trainctl::kube {

struct WatchEvent {
  std::string type;              // ADDED, MODIFIED, DELETED, BOOKMARK or ERROR
  nlohmann::json object;         // the object; a metav1.Status for ERROR
  std::string resource_version;  // the object's metadata.resourceVersion, "" when absent
};

// One line of a watch stream; nullopt for a line that is no event (empty, or not JSON).
// JSON of another shape (not an event of a known type, an object that is not an object, a
// resourceVersion that is not a string) throws Error.
std::optional<WatchEvent> parse_watch_event(std::string_view line);

// The error an ERROR event stands for (apimachinery's errors.FromObject): its Status's code,
// reason and message; anything else is a 500 naming what came instead.
ApiError watch_error(const nlohmann::json& status);

// The resourceVersion asked for is no longer there (410 with reason Expired, or Gone from
// servers before 1.18; the reflector's isExpiredError): list again, then watch from the
// list's resourceVersion.
bool is_expired(const ApiError& e);

}  // namespace trainctl::kube
