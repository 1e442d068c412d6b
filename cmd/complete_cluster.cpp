#include "cmd/complete_cluster.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "jobs/job_query.h"
#include "jobs/kind.h"
#include "kube/kubeconfig_file.h"
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

std::vector<std::string> kubeconfig_files(const Scope& s) {
  if (!s.kubeconfig.empty()) return {s.kubeconfig};
  std::vector<std::string> files;
  if (const char* list = std::getenv("KUBECONFIG"); list && *list) {
    std::string all = list;
    size_t start = 0;
    while (start <= all.size()) {
      size_t end = all.find(':', start);
      if (end == std::string::npos) end = all.size();
      if (end > start) files.push_back(all.substr(start, end - start));
      start = end + 1;
    }
    return files;
  }
  if (const char* home = std::getenv("HOME"); home && *home)
    files.push_back((std::filesystem::path(home) / ".kube" / "config").string());
  return files;
}

}  // namespace

ClientLookup::ClientLookup(Connect connect, NamespaceOf namespace_of)
    : m_connect(std::move(connect)), m_namespace_of(std::move(namespace_of)) {}

kube::Client* ClientLookup::client(const Scope& s) {
  if (!m_tried) {
    m_tried = true;
    try {
      m_client = m_connect(s);
    } catch (const std::exception&) {
      m_client.reset();
    }
  }
  return m_client.get();
}

std::string ClientLookup::ns(const Scope& s) {
  if (!s.namespace_.empty()) return s.namespace_;
  try {
    return m_namespace_of(s);
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
  std::vector<std::string> out;
  for (const auto& file : kubeconfig_files(s)) {
    try {
      for (const auto& [name, ctx] : kube::detail::parse_kubeconfig_file(file).contexts) out.push_back(name);
    } catch (const std::exception&) {
    }
  }
  return out;
}

}  // namespace trainctl::completion
