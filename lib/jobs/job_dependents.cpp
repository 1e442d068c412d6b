#include "jobs/job_dependents.h"

#include <array>

#include "core/errors.h"

namespace trainctl::jobs {

using nlohmann::json;

namespace {

struct Collection {
  const char* kind;
  Resource resource;
};

const std::array<Collection, 3>& collections() {
  static const std::array<Collection, 3> c = {{
      {"Service", {"", "v1", "services", "Service"}},
      {"Deployment", {"apps", "v1", "deployments", "Deployment"}},
      {"ConfigMap", {"", "v1", "configmaps", "ConfigMap"}},
  }};
  return c;
}

bool owned_by_or_orphan(const json& meta, const std::string& uid) {
  const auto it = meta.find("ownerReferences");
  if (it == meta.end() || !it->is_array() || it->empty()) return true;
  for (const auto& ref : *it)
    if (ref.is_object() && ref.value("uid", "") == uid && !uid.empty()) return true;
  return false;
}

}  // namespace

std::vector<Dependent> find_dependents(kube::Client& client, const JobKind& kind, const std::string& ns,
                                       const std::string& name, const std::string& job_uid) {
  const std::string selector =
      kube::url_encode("app=" + kind.type + ",release=" + name + ",app.kubernetes.io/managed-by=trainctl");
  std::vector<kube::Request> requests;
  for (const auto& c : collections()) {
    kube::Request r;
    r.path = c.resource.collection_path(ns) + "?labelSelector=" + selector;
    requests.push_back(std::move(r));
  }
  auto results = client.send_all(requests);
  std::vector<Dependent> out;
  for (size_t i = 0; i < results.size(); ++i) {
    if (results[i].error) {
      try {
        std::rethrow_exception(results[i].error);
      } catch (const ApiError& e) {
        if (e.is_not_found()) continue;  // the resource is not served
        throw;
      }
    }
    const json list = json::parse(results[i].response.body, nullptr, false);
    if (!list.is_object() || !list.contains("items") || !list["items"].is_array())
      throw Error("the server's list of " + std::string(collections()[i].kind) + "s is not a Kubernetes list");
    for (const auto& item : list["items"]) {
      if (!item.is_object() || !item.contains("metadata") || !item["metadata"].is_object()) continue;
      const json& meta = item["metadata"];
      if (!owned_by_or_orphan(meta, job_uid)) continue;
      const std::string n = meta.value("name", "");
      if (n.empty()) continue;
      out.push_back({collections()[i].kind, n, collections()[i].resource.object_path(ns, n)});
    }
  }
  return out;
}

void delete_dependents(kube::Client& client, const std::vector<Dependent>& dependents) {
  for (const auto& d : dependents) {
    try {
      client.delete_json(d.path, {{"apiVersion", "v1"}, {"kind", "DeleteOptions"}, {"propagationPolicy", "Background"}});
    } catch (const ApiError& e) {
      if (!e.is_not_found()) throw;
    }
  }
}

}  // namespace trainctl::jobs
