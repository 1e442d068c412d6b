// Creating, patching and deleting objects: POST to a resource's collection, a JSON merge patch
// of one object, DELETE of one object with a propagation policy (metav1.DeleteOptions).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "kube/client.h"
#include "kube/resource.h"

namespace trainctl::kube {

// metav1.DeletionPropagation: what happens to the objects the deleted one owns.
enum class Propagation { Background, Foreground };

// The DeleteOptions body of a DELETE: {"apiVersion":"v1","kind":"DeleteOptions","propagationPolicy":...}.
nlohmann::json delete_options(Propagation propagation);

// POSTs `object` to the collection of `resource` in `ns` with ?fieldValidation=Strict (the
// server refuses unknown and duplicate fields instead of dropping them) and returns the
// object as the server created it. A 2xx answer that is not JSON is an Error.
nlohmann::json create_object(Client& client, const Resource& resource, const std::string& ns,
                             const nlohmann::json& object);

// The same POST as a request of its own, for a round of several (Client::send_all); with
// dry_run, ?dryRun=All: the server admits and validates the object (mutating webhooks
// included) and answers what it would store, storing nothing.
Request create_request(const Resource& resource, const std::string& ns, const nlohmann::json& object,
                       bool dry_run = false);

// PATCHes one object with a JSON merge patch (RFC 7386, application/merge-patch+json, as
// `kubectl patch --type merge` sends it) and ?fieldValidation=Strict: a field the served
// schema lacks is refused (422) instead of dropped. Returns the object as the server stored it.
nlohmann::json merge_patch_object(Client& client, const Resource& resource, const std::string& ns,
                                  const std::string& name, const nlohmann::json& patch);

// DELETEs one object with that propagation policy. Returns the server's answer: the object
// itself while finalizers hold it (metadata.deletionTimestamp set), a Success Status once
// it is gone, null for an empty body.
nlohmann::json delete_object(Client& client, const Resource& resource, const std::string& ns,
                             const std::string& name, Propagation propagation);

}  // namespace trainctl::kube
