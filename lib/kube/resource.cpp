#include "kube/resource.h"

#include <array>
#include <cctype>

#include "core/errors.h"
#include "kube/query.h"

namespace trainctl::kube {

namespace {

// net/url shouldEscape(c, encodePath) of Go's standard library: unreserved characters and
// the reserved ones a path may carry ('/' aside: path_segment refuses it; '?' is escaped).
bool keep_in_path(unsigned char c) {
  if (std::isalnum(c)) return true;
  switch (c) {
    case '-':
    case '_':
    case '.':
    case '~':
    case '$':
    case '&':
    case '+':
    case ',':
    case ':':
    case ';':
    case '=':
    case '@':
      return true;
    default:
      return false;
  }
}

std::string group_version_path(const Resource& r) {
  return r.group.empty() ? "/api/" + r.version : "/apis/" + r.group + "/" + r.version;
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

enum KnownResource : size_t {
  kPods,
  kServices,
  kConfigMaps,
  kEvents,
  kPersistentVolumeClaims,
  kNamespaces,
  kNodes,
  kDeployments,
  kCustomResourceDefinitions,
  kResourceQuotas,
  kPodGroups,
  kSelfSubjectAccessReviews,
  kKnownResources
};

const std::array<Resource, kKnownResources>& known() {
  static const std::array<Resource, kKnownResources> resources = {{
      {"", "v1", "pods", "Pod"},
      {"", "v1", "services", "Service"},
      {"", "v1", "configmaps", "ConfigMap"},
      {"", "v1", "events", "Event"},
      {"", "v1", "persistentvolumeclaims", "PersistentVolumeClaim"},
      {"", "v1", "namespaces", "Namespace", false},
      {"", "v1", "nodes", "Node", false},
      {"apps", "v1", "deployments", "Deployment"},
      {"apiextensions.k8s.io", "v1", "customresourcedefinitions", "CustomResourceDefinition", false},
      {"", "v1", "resourcequotas", "ResourceQuota"},
      {"scheduling.volcano.sh", "v1beta1", "podgroups", "PodGroup"},
      {"authorization.k8s.io", "v1", "selfsubjectaccessreviews", "SelfSubjectAccessReview", false},
  }};
  return resources;
}

// apimachinery's UnsafeGuessKindToResource (pkg/api/meta/restmapper.go).
std::string guess_plural(const std::string& kind) {
  std::string singular = lower(kind);
  const std::string endpoints = "endpoints";
  if (singular.size() >= endpoints.size() &&
      singular.compare(singular.size() - endpoints.size(), endpoints.size(), endpoints) == 0)
    return singular;
  if (singular.back() == 's') return singular + "es";
  if (singular.back() == 'y') return singular.substr(0, singular.size() - 1) + "ies";
  return singular + "s";
}

}  // namespace

std::string path_segment(std::string_view name, std::string_view what) {
  // client-go rest/request.go: NameMayNotBe {".", ".."}, NameMayNotContain {"/", "%"}.
  auto refuse = [&](const std::string& why) {
    throw UsageError("invalid " + std::string(what) + " \"" + std::string(name) + "\": it " + why);
  };
  if (name.empty()) refuse("is empty");
  if (name == "." || name == "..") refuse("may not be '" + std::string(name) + "'");
  if (name.find('/') != std::string_view::npos) refuse("may not contain '/'");
  if (name.find('%') != std::string_view::npos) refuse("may not contain '%'");
  return percent_encode(name, keep_in_path);
}

std::string Resource::api_version() const { return group.empty() ? version : group + "/" + version; }

std::string Resource::display() const { return kind + " (" + api_version() + ")"; }

std::string api_group_path(const std::string& group) { return "/apis/" + path_segment(group, "API group"); }

std::string api_group_list_path() { return "/apis"; }

std::string api_resource_list_path(const std::string& group, const std::string& version) {
  Resource r;
  r.group = group.empty() ? "" : path_segment(group, "API group");
  r.version = path_segment(version, "API version");
  return group_version_path(r);
}

std::string Resource::collection_path(const std::string& ns) const {
  std::string path = group_version_path(*this);
  if (namespaced && !ns.empty()) path += "/namespaces/" + path_segment(ns, "namespace");
  return path + "/" + plural;
}

std::string Resource::object_path(const std::string& ns, const std::string& name) const {
  if (namespaced && ns.empty())
    throw Error("a " + kind + " lives in a namespace: no namespace given for " + kind + " " + name);
  return collection_path(ns) + "/" + path_segment(name);
}

std::string Resource::subresource_path(const std::string& ns, const std::string& name,
                                       const std::string& subresource) const {
  return object_path(ns, name) + "/" + path_segment(subresource, "subresource");
}

std::string service_proxy_path(const std::string& ns, const std::string& name, int port, std::string_view path) {
  return services().object_path(ns, name) + ":" + std::to_string(port) + "/proxy/" + std::string(path);
}

const Resource& pods() { return known()[kPods]; }
const Resource& services() { return known()[kServices]; }
const Resource& config_maps() { return known()[kConfigMaps]; }
const Resource& events() { return known()[kEvents]; }
const Resource& persistent_volume_claims() { return known()[kPersistentVolumeClaims]; }
const Resource& namespaces() { return known()[kNamespaces]; }
const Resource& nodes() { return known()[kNodes]; }
const Resource& deployments() { return known()[kDeployments]; }
const Resource& custom_resource_definitions() { return known()[kCustomResourceDefinitions]; }
const Resource& resource_quotas() { return known()[kResourceQuotas]; }
const Resource& pod_groups() { return known()[kPodGroups]; }
const Resource& self_subject_access_reviews() { return known()[kSelfSubjectAccessReviews]; }

Resource resource_of(const nlohmann::json& object) {
  const std::string api_version = object.is_object() ? object.value("apiVersion", "") : "";
  const std::string kind = object.is_object() ? object.value("kind", "") : "";
  if (api_version.empty() || kind.empty())
    throw Error("a manifest without apiVersion and kind cannot be sent: add both to the template");
  const size_t slash = api_version.find('/');
  Resource r;
  r.group = slash == std::string::npos ? "" : api_version.substr(0, slash);
  r.version = slash == std::string::npos ? api_version : api_version.substr(slash + 1);
  r.kind = kind;
  for (const auto& k : known()) {
    if (k.group == r.group && k.kind == kind) {
      r.plural = k.plural;
      r.namespaced = k.namespaced;
      return r;
    }
  }
  r.plural = guess_plural(kind);
  return r;
}

}  // namespace trainctl::kube
