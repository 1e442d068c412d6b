// API resources and the REST paths of their objects, as kube-apiserver serves them and
// client-go's rest.Request builds them (k8s.io/client-go rest/request.go, URL()):
//   core group:   /api/v1[/namespaces/NS]/PLURAL[/NAME[/SUBRESOURCE]]
//   other groups: /apis/GROUP/VERSION[/namespaces/NS]/PLURAL[/NAME[/SUBRESOURCE]]
// Every path of trainctl's requests is built here.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace trainctl::kube {

struct Resource {
  std::string group;  // "" for the core group
  std::string version;
  std::string plural;
  std::string kind;
  bool namespaced = true;

  std::string api_version() const;  // "v1", "kubeflow.org/v1"
  // "PyTorchJob (kubeflow.org/v1)", for messages.
  std::string display() const;

  // The collection in namespace `ns`; with ns "" (or for a cluster-scoped resource) the
  // collection across all namespaces: /apis/kubeflow.org/v1/pytorchjobs.
  std::string collection_path(const std::string& ns = "") const;
  // One object. A namespaced resource needs a namespace.
  std::string object_path(const std::string& ns, const std::string& name) const;
  // A subresource of one object: pods/NAME/log, pytorchjobs/NAME/status.
  std::string subresource_path(const std::string& ns, const std::string& name,
                               const std::string& subresource) const;
};

// A name (object, namespace, subresource) as one path segment. As client-go's
// IsValidPathSegmentName, "." and ".." and names holding '/' or '%' are refused (UsageError:
// the server would read them as another path); the rest is escaped as Go's url.URL escapes a
// path (net/url shouldEscape, encodePath): ASCII letters, digits, "-_.~" and "$&+,:;=@" stay.
std::string path_segment(std::string_view name, std::string_view what = "name");

// The API server's proxy to port `port` of Service NAME in namespace NS, followed by `path`
// (no leading slash): /api/v1/namespaces/NS/services/NAME:PORT/proxy/PATH (kube-apiserver
// pkg/registry/core/service/proxy.go; client-go's ProxyGet builds the same).
std::string service_proxy_path(const std::string& ns, const std::string& name, int port, std::string_view path);

// The server's version.Info (a path outside the resources).
inline constexpr const char* kVersionPath = "/version";

// The discovery document of an API group (an APIGroup: its served versions and the preferred
// one), as client-go's discovery client reads it without aggregated discovery: /apis/GROUP.
std::string api_group_path(const std::string& group);
// Every API group with its versions (an APIGroupList): /apis.
std::string api_group_list_path();
// The resources one group version serves (an APIResourceList): /api/v1, /apis/GROUP/VERSION.
std::string api_resource_list_path(const std::string& group, const std::string& version);

// The resources trainctl reads and writes besides the job kinds (jobs/kind.h).
const Resource& pods();
const Resource& services();
const Resource& config_maps();
const Resource& events();
const Resource& persistent_volume_claims();
const Resource& namespaces();  // cluster-scoped
const Resource& nodes();       // cluster-scoped
const Resource& deployments();
const Resource& custom_resource_definitions();  // cluster-scoped
const Resource& resource_quotas();
const Resource& pod_groups();  // Volcano's (scheduling.volcano.sh/v1beta1), also used by the
                               // training-operator's gang scheduling
// authorization.k8s.io/v1 selfsubjectaccessreviews (cluster-scoped, create only): what the
// current user may do, as `kubectl auth can-i` asks.
const Resource& self_subject_access_reviews();

// The resource of a manifest, from its apiVersion and kind: one of the resources above when
// its group and kind are theirs (with the manifest's version); else, as kubectl does without discovery
// (k8s.io/apimachinery pkg/api/meta/restmapper.go, UnsafeGuessKindToResource), the lower-case
// kind made plural: "...s" -> "...ses", "...y" -> "...ies", "...endpoints" unchanged, else
// "...s"; namespaced. Throws Error when apiVersion or kind is missing.
Resource resource_of(const nlohmann::json& object);

}  // namespace trainctl::kube
