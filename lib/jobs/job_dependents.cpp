#include "jobs/job_dependents.h"

#include <array>

#include "core/errors.h"
#include "kube/answer_shape.h"
#include "kube/object_ops.h"

namespace trainctl::jobs {

using nlohmann::json;

namespace {

const std::array<const kube::Resource*, 3>& collections() {
  static const std::array<const kube::Resource*, 3> c = {&kube::services(), &kube::deployments(),
                                                         &kube::config_maps()};
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
  kube::ListQuery query;
  query.label_selector = "app=" + kind.type + ",release=" + name + ",app.kubernetes.io/managed-by=trainctl";
  std::vector<kube::Request> requests;
  for (const auto* c : collections()) {
    kube::Request r;
    r.path = c->collection_path(ns) + query.encode();
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
    if (list.is_discarded()) throw Error("the server's answer to GET " + requests[i].path + " is not JSON");
    kube::expect_list(list, "GET " + requests[i].path, collections()[i]->kind + "List");
    if (list["items"].is_null()) continue;
    for (const auto& item : list["items"]) {
      if (!item.contains("metadata") || !item["metadata"].is_object()) continue;
      const json& meta = item["metadata"];
      if (!owned_by_or_orphan(meta, job_uid)) continue;
      const std::string n = meta.value("name", "");
      if (n.empty()) continue;
      out.push_back({collections()[i], ns, n});
    }
  }
  return out;
}

void delete_dependents(kube::Client& client, const std::vector<Dependent>& dependents) {
  for (const auto& d : dependents) {
    try {
      kube::delete_object(client, *d.resource, d.namespace_, d.name, kube::Propagation::Background);
    } catch (const ApiError& e) {
      if (!e.is_not_found()) throw;
    }
  }
}

}  // namespace trainctl::jobs
