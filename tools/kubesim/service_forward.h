// The service proxy's way to a Service's endpoint (service_proxy.h): kube-apiserver's
// ResourceLocation over the Service's Endpoints, and the forwarding of the request there.
#pragma once

#include <httplib.h>

#include <optional>
#include <string>

namespace kubesim {

class Store;

struct EndpointLocation {
  std::string scheme;  // "http" or "https"
  std::string ip;
  int port = 0;
};

// kubernetes pkg/registry/core/service/storage/storage.go ResourceLocation, after the Service
// and its port name are known: the Endpoints object of the Service's name, a subset with ready
// addresses and a port named port_name (a random subset, then a random address, as upstream),
// an address whose targetRef is a Pod of the namespace with that IP among its status.podIPs
// (isValidAddress). nullopt when kubesim has no Endpoints object of that name (it runs no
// endpoints controller); throws 503 "no endpoints available for service" when none fits.
std::optional<EndpointLocation> endpoint_location(const Store& store, const std::string& ns, const std::string& name,
                                                  const std::string& port_name, const std::string& scheme);

// Sends the request to the location, path `/` + rest with the request's query string, method,
// body and headers less Authorization (kube-apiserver's authentication filter removes it,
// apiserver pkg/endpoints/filters/authentication.go), and copies the answer back with its status
// (apimachinery pkg/util/proxy UpgradeAwareHandler). kubesim has no pod network: only a
// loopback address is dialled; any other, or a failed dial, is 503 "error trying to reach
// service: ..." (apimachinery pkg/util/proxy/transport.go).
void forward_to_endpoint(const EndpointLocation& loc, const std::string& rest, const httplib::Request& req,
                         httplib::Response& res);

}  // namespace kubesim
