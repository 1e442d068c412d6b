// ClusterLookup over a kube::Client: the live part of `trainctl __complete`. Every lookup
// swallows errors (no cluster, timeout, 403, missing CRD) and returns what it could get.
#pragma once

#include <functional>
#include <memory>

#include "cmd/complete_engine.h"
#include "kube/client.h"

namespace trainctl::completion {

class ClientLookup : public ClusterLookup {
 public:
  // `connect` builds a client for the scope (called at most once, on first lookup);
  // `namespace_of` gives the namespace when -n was not typed.
  using Connect = std::function<std::shared_ptr<kube::Client>(const Scope&)>;
  using NamespaceOf = std::function<std::string(const Scope&)>;
  ClientLookup(Connect connect, NamespaceOf namespace_of);

  std::vector<std::string> jobs(const Scope& s) override;
  std::vector<std::string> instances(const Scope& s, const std::string& job) override;
  std::vector<std::string> namespaces(const Scope& s) override;
  std::vector<std::string> pvcs(const Scope& s) override;
  std::vector<std::string> nodes(const Scope& s) override;
  // From the kubeconfig files (--kubeconfig, else $KUBECONFIG, else ~/.kube/config).
  std::vector<std::string> contexts(const Scope& s) override;

 private:
  kube::Client* client(const Scope& s);
  std::string ns(const Scope& s);
  // metadata.name of the items of every list answered with 2xx.
  std::vector<std::string> names(const Scope& s, const std::vector<std::string>& paths);

  Connect m_connect;
  NamespaceOf m_namespace_of;
  std::shared_ptr<kube::Client> m_client;
  bool m_tried = false;
};

}  // namespace trainctl::completion
