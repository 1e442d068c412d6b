#include "jobs/cluster_names.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "kube/query.h"

namespace trainctl::jobs {

namespace {

std::string first_page(const kube::Resource& resource, const std::string& ns, const std::string& selector) {
  kube::ListQuery q;
  q.label_selector = selector;
  q.limit = kCompletionNames;
  return resource.collection_path(ns) + q.encode();
}

}  // namespace

std::vector<std::string> job_name_lists(const std::string& ns, const std::vector<const JobKind*>& kinds) {
  std::vector<std::string> paths;
  for (const JobKind* k : kinds) paths.push_back(first_page(k->resource, ns, k->list_selector));
  return paths;
}

std::vector<std::string> instance_name_lists(const std::string& ns, const std::vector<const JobKind*>& kinds,
                                             const std::string& job) {
  std::vector<std::string> paths;
  for (const JobKind* k : kinds) {
    const std::string p = first_page(kube::pods(), ns, k->pod_selector(job));
    if (std::find(paths.begin(), paths.end(), p) == paths.end()) paths.push_back(p);
  }
  return paths;
}

std::string name_list(const kube::Resource& resource, const std::string& ns) { return first_page(resource, ns, ""); }

std::vector<std::string> read_names(kube::Client& client, const std::vector<std::string>& lists) {
  std::vector<std::string> out;
  if (lists.empty()) return out;
  std::vector<kube::Request> requests;
  for (const auto& p : lists) {
    kube::Request r;
    r.path = p;
    requests.push_back(std::move(r));
  }
  try {
    for (const auto& result : client.send_all(requests)) {
      if (result.error) continue;
      const auto body = nlohmann::json::parse(result.response.body, nullptr, false);
      if (!body.is_object() || !body.contains("items") || !body["items"].is_array()) continue;
      for (const auto& item : body["items"]) {
        const auto name = item.value("/metadata/name"_json_pointer, std::string());
        if (!name.empty()) out.push_back(name);
      }
    }
  } catch (const std::exception&) {
  }
  return out;
}

}  // namespace trainctl::jobs
