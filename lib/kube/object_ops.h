// Creating and deleting objects: POST to a resource's collection, DELETE of one object with
// a propagation policy (metav1.DeleteOptions).
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

// DELETEs one object with that propagation policy. Returns the server's answer: the object
// itself while finalizers hold it (metadata.deletionTimestamp set), a Success Status once
// it is gone, null for an empty body.
nlohmann::json delete_object(Client& client, const Resource& resource, const std::string& ns,
                             const std::string& name, Propagation propagation);

}  // namespace trainctl::kube
