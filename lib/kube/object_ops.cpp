#include "kube/object_ops.h"

#include "kube/answer_shape.h"

namespace trainctl::kube {

nlohmann::json delete_options(Propagation propagation) {
  return {{"apiVersion", "v1"},
          {"kind", "DeleteOptions"},
          {"propagationPolicy", propagation == Propagation::Foreground ? "Foreground" : "Background"}};
}

nlohmann::json create_object(Client& client, const Resource& resource, const std::string& ns,
                             const nlohmann::json& object) {
  const std::string path = create_request(resource, ns, nlohmann::json()).path;
  nlohmann::json answer = client.post_json(path, object);
  const auto& md = object.contains("metadata") ? object["metadata"] : nlohmann::json();
  expect_object(answer, "POST " + path, object.value("kind", ""),
                md.is_object() ? md.value("name", "") : std::string());
  return answer;
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

nlohmann::json merge_patch_object(Client& client, const Resource& resource, const std::string& ns,
                                  const std::string& name, const nlohmann::json& patch) {
  Query q;
  q.add("fieldValidation", "Strict");
  const std::string path = resource.object_path(ns, name) + q.encode();
  nlohmann::json answer = client.patch_json(path, patch, "application/merge-patch+json");
  expect_object(answer, "PATCH " + path, resource.kind, name);
  return answer;
}

nlohmann::json delete_object(Client& client, const Resource& resource, const std::string& ns,
                             const std::string& name, Propagation propagation) {
  const std::string path = resource.object_path(ns, name);
  nlohmann::json answer = client.delete_json(path, delete_options(propagation));
  // The object while finalizers hold it, or a Status.
  if (!answer.is_null() && !answer.is_object())
    wrong_shape("DELETE " + path, describe_answer(answer), "an object");
  return answer;
}

}  // namespace trainctl::kube
