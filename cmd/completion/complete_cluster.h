// ClusterLookup over a kube::Client: the live part of `trainctl __complete`. Every lookup
// swallows errors (no cluster, timeout, 403, missing CRD) and returns what it could get.
#pragma once

#include <functional>
#include <memory>

#include "cmd/completion/complete_engine.h"
#include "cmd/factory.h"

namespace trainctl::completion {

class ClientLookup : public ClusterLookup {
 public:
  // `factory_for` gives the Factory of the scope's --kubeconfig, --context and -n (called
  // once, on the first lookup); its client is built when a lookup first needs the cluster.
  using FactoryFor = std::function<std::unique_ptr<Factory>(const Scope&)>;
  explicit ClientLookup(FactoryFor factory_for);

  std::vector<std::string> jobs(const Scope& s) override;
  std::vector<std::string> instances(const Scope& s, const std::string& job) override;
  std::vector<std::string> namespaces(const Scope& s) override;
  std::vector<std::string> pvcs(const Scope& s) override;
  std::vector<std::string> nodes(const Scope& s) override;
  // From the kubeconfig files (--kubeconfig, else $KUBECONFIG, else ~/.kube/config), as
  // Factory::kubeconfig_contexts reads them.
  std::vector<std::string> contexts(const Scope& s) override;

 private:
  Factory& factory(const Scope& s);
  kube::Client* client(const Scope& s);
  std::string ns(const Scope& s);
  // metadata.name of the items of every list answered with 2xx.
  std::vector<std::string> names(const Scope& s, const std::vector<std::string>& paths);

  FactoryFor m_factory_for;
  std::unique_ptr<Factory> m_factory;
  kube::Client* m_client = nullptr;
  bool m_tried = false;
};

}  // namespace trainctl::completion
