// Name resolution inside a pod of the simulated cluster: what getaddrinfo returns for a host
// name, as the pod's /etc/hosts and the cluster DNS (CoreDNS's kubernetes plugin, the
// Kubernetes DNS specification "DNS for Services and Pods") would answer it:
// - loopback names and addresses, the pod's own hostname and, with a subdomain, its FQDN
//   HOSTNAME.SUBDOMAIN.NS.svc.cluster.local (the kubelet's /etc/hosts) name the pod itself, also
//   when the search list makes the FQDN of HOSTNAME.SUBDOMAIN (glibc consults /etc/hosts for
//   each name it tries);
// - a pod IP names that pod;
// - SERVICE[.NS[.svc[.cluster.local]]] (searched as the pod's resolv.conf does: ClusterFirst,
//   `search NS.svc.cluster.local svc.cluster.local cluster.local`) names the pods of the
//   Service's endpoints; HOST.SERVICE[.NS...] names the endpoint pod whose spec.hostname is
//   HOST and spec.subdomain is SERVICE, for a headless Service.
// A Service's endpoints are the pods its selector matches that are Ready, or that have an
// IP when the Service has publishNotReadyAddresses (the EndpointSlice controller,
// pkg/controller/endpointslice). kubesim publishes a pod one simulated second after it
// became Ready (or got its IP), as the kubelet -> API server -> EndpointSlice -> CoreDNS
// chain of a real cluster does not answer at the instant a container starts either.
#pragma once

#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace kubesim {

using PodList = std::vector<std::shared_ptr<const nlohmann::json>>;

inline constexpr std::chrono::seconds kEndpointPublishDelay{1};

class ClusterDns {
 public:
  // pods and services: every pod and Service of the namespace the lookups are made from.
  ClusterDns(const PodList& pods, const PodList& services, std::chrono::system_clock::time_point now);

  // The pods `host` resolves to when looked up in pod `self` (empty: the name does not
  // resolve, e.g. "Name or service not known").
  std::vector<const nlohmann::json*> resolve(const std::string& host, const nlohmann::json& self) const;

 private:
  std::vector<const nlohmann::json*> endpoints(const nlohmann::json& service) const;
  std::vector<const nlohmann::json*> service_record(const std::string& fqdn, const std::string& ns) const;

  const PodList& m_pods;
  const PodList& m_services;
  std::chrono::system_clock::time_point m_now;
};

}  // namespace kubesim
