#include "kube/object_ops.h"

namespace trainctl::kube {

nlohmann::json delete_options(Propagation propagation) {
  return {{"apiVersion", "v1"},
          {"kind", "DeleteOptions"},
          {"propagationPolicy", propagation == Propagation::Foreground ? "Foreground" : "Background"}};
}

nlohmann::json create_object(Client& client, const Resource& resource, const std::string& ns,
                             const nlohmann::json& object) {
  return client.post_json(resource.collection_path(ns) + Query().add("fieldValidation", "Strict").encode(),
                          object);
}

nlohmann::json delete_object(Client& client, const Resource& resource, const std::string& ns,
                             const std::string& name, Propagation propagation) {
  return client.delete_json(resource.object_path(ns, name), delete_options(propagation));
}

}  // namespace trainctl::kube
