#include "kube/object_ops.h"

namespace trainctl::kube {

nlohmann::json delete_options(Propagation propagation) {
  return {{"apiVersion", "v1"},
          {"kind", "DeleteOptions"},
          {"propagationPolicy", propagation == Propagation::Foreground ? "Foreground" : "Background"}};
}

nlohmann::json create_object(Client& client, const Resource& resource, const std::string& ns,
                             const nlohmann::json& object) {
  return client.post_json(create_request(resource, ns, nlohmann::json()).path, object);
}

Request create_request(const Resource& resource, const std::string& ns, const nlohmann::json& object,
                       bool dry_run) {
  Query q;
  if (dry_run) q.add("dryRun", "All");
  q.add("fieldValidation", "Strict");
  Request r;
  r.method = "POST";
  r.path = resource.collection_path(ns) + q.encode();
  r.body = object.dump();
  return r;
}

nlohmann::json delete_object(Client& client, const Resource& resource, const std::string& ns,
                             const std::string& name, Propagation propagation) {
  return client.delete_json(resource.object_path(ns, name), delete_options(propagation));
}

}  // namespace trainctl::kube
