#include "cmd/completion/complete_cluster.h"

#include <algorithm>

#include "jobs/job_query.h"
#include "jobs/kind.h"
#include "kube/resource.h"

namespace trainctl::completion {

namespace {

// One page of names is enough to complete from.
constexpr int kNamesLimit = 500;

std::string names_path(const kube::Resource& resource, const std::string& ns,
                       const std::string& selector = "") {
  kube::ListQuery q;
  q.label_selector = selector;
  q.limit = kNamesLimit;
  return resource.collection_path(ns) + q.encode();
}

}  // namespace

ClientLookup::ClientLookup(FactoryFor factory_for) : m_factory_for(std::move(factory_for)) {}

Factory& ClientLookup::factory(const Scope& s) {
  if (!m_factory) m_factory = m_factory_for(s);
  return *m_factory;
}

kube::Client* ClientLookup::client(const Scope& s) {
  if (!m_tried) {
    m_tried = true;
    try {
      m_client = &factory(s).client();
    } catch (const std::exception&) {
      m_client = nullptr;
    }
  }
  return m_client;
}

std::string ClientLookup::ns(const Scope& s) {
  if (!s.namespace_.empty()) return s.namespace_;
  try {
    return factory(s).namespace_();
  } catch (const std::exception&) {
    return "default";
  }
}

std::vector<std::string> ClientLookup::names(const Scope& s, const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  kube::Client* c = client(s);
  if (!c || paths.empty()) return out;
  std::vector<kube::Request> requests;
  for (const auto& p : paths) {
    kube::Request r;
    r.path = p;
    requests.push_back(std::move(r));
  }
  try {
    for (const auto& result : c->send_all(requests)) {
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

std::vector<std::string> ClientLookup::jobs(const Scope& s) {
  std::vector<std::string> paths;
  try {
    const std::string n = ns(s);
    for (const jobs::JobKind* k : jobs::kinds_for_type(s.type))
      paths.push_back(names_path(k->resource, n, k->list_selector));
  } catch (const std::exception&) {
    return {};  // an invalid --type
  }
  return names(s, paths);
}

std::vector<std::string> ClientLookup::instances(const Scope& s, const std::string& job) {
  std::vector<std::string> paths;
  try {
    const std::string n = ns(s);
    for (const jobs::JobKind* k : jobs::kinds_for_type(s.type)) {
      const std::string p = names_path(kube::pods(), n, k->pod_selector(job));
      if (std::find(paths.begin(), paths.end(), p) == paths.end()) paths.push_back(p);
    }
  } catch (const std::exception&) {
    return {};
  }
  return names(s, paths);
}

std::vector<std::string> ClientLookup::namespaces(const Scope& s) {
  return names(s, {names_path(kube::namespaces(), "")});
}

std::vector<std::string> ClientLookup::pvcs(const Scope& s) {
  std::vector<std::string> paths;
  try {
    paths.push_back(names_path(kube::persistent_volume_claims(), ns(s)));
  } catch (const std::exception&) {
    return {};  // an invalid -n
  }
  return names(s, paths);
}

std::vector<std::string> ClientLookup::nodes(const Scope& s) {
  return names(s, {names_path(kube::nodes(), "")});
}

std::vector<std::string> ClientLookup::contexts(const Scope& s) {
  try {
    return factory(s).kubeconfig_contexts();
  } catch (const std::exception&) {
    return {};
  }
}

}  // namespace trainctl::completion
