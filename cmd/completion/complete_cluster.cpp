#include "cmd/completion/complete_cluster.h"

#include "jobs/cluster_names.h"
#include "jobs/job_query.h"
#include "kube/resource.h"

namespace trainctl::completion {

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
  kube::Client* c = client(s);
  if (!c) return {};
  return jobs::read_names(*c, paths);
}

std::vector<std::string> ClientLookup::jobs(const Scope& s) {
  std::vector<std::string> paths;
  try {
    const std::string n = ns(s);
    paths = jobs::job_name_lists(n, jobs::kinds_for_type(s.type));
  } catch (const std::exception&) {
    return {};  // an invalid --type
  }
  return names(s, paths);
}

std::vector<std::string> ClientLookup::instances(const Scope& s, const std::string& job) {
  std::vector<std::string> paths;
  try {
    const std::string n = ns(s);
    paths = jobs::instance_name_lists(n, jobs::kinds_for_type(s.type), job);
  } catch (const std::exception&) {
    return {};
  }
  return names(s, paths);
}

std::vector<std::string> ClientLookup::namespaces(const Scope& s) {
  return names(s, {jobs::name_list(kube::namespaces(), "")});
}

std::vector<std::string> ClientLookup::pvcs(const Scope& s) {
  std::vector<std::string> paths;
  try {
    paths.push_back(jobs::name_list(kube::persistent_volume_claims(), ns(s)));
  } catch (const std::exception&) {
    return {};  // an invalid -n
  }
  return names(s, paths);
}

std::vector<std::string> ClientLookup::nodes(const Scope& s) {
  return names(s, {jobs::name_list(kube::nodes(), "")});
}

std::vector<std::string> ClientLookup::contexts(const Scope& s) {
  try {
    return factory(s).kubeconfig_contexts();
  } catch (const std::exception&) {
    return {};
  }
}

}  // namespace trainctl::completion
