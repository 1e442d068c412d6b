// Who may do what: kube-apiserver's authorizer chain as `--authorization-mode=RBAC` sets it
// up. A user in system:masters may do anything (the privileged-group authorizer,
// kubernetes/kubernetes pkg/kubeapiserver/authorizer/config.go); everyone else is decided by
// RBAC over the stored Roles, ClusterRoles, RoleBindings and ClusterRoleBindings
// (rbac.authorization.k8s.io/v1), as plugin/pkg/auth/authorizer/rbac/rbac.go and
// pkg/registry/rbac/validation/rule.go decide it: the ClusterRoleBindings, then the
// RoleBindings of the request's namespace, whose subjects name the user, one of its groups or
// its ServiceAccount; a rule allows when its verbs, API groups, resources ("*", "res/sub",
// "*/sub") and resource names (none = all) or non-resource URLs ("/path", "/prefix*") match
// (pkg/apis/rbac/v1/evaluation_helpers.go). RBAC never denies: without a matching rule the
// answer is "no opinion", which the server treats as a refusal. Aggregated ClusterRoles
// (aggregationRule) are not modelled: their rules are what the object holds.
// The same decision answers requests (server_auth.cpp) and SelfSubjectAccessReviews
// (access_review.h), as kube-apiserver's one authorizer answers both.
#pragma once

#include <string>
#include <vector>

#include "kubesim/store.h"

namespace kubesim {

struct UserInfo {
  std::string name;
  std::vector<std::string> groups;
};

// A bearer token and the user it authenticates (kube-apiserver --token-auth-file).
struct TokenUser {
  std::string token;
  UserInfo user;
};

// authorizer.AttributesRecord: a resource request (verb, API group, resource, subresource,
// name, namespace) or a non-resource one (verb and path).
struct AuthAttributes {
  bool resource_request = true;
  std::string verb, group, resource, subresource, name, namespace_;
  std::string path;  // non-resource requests only
};

struct AuthDecision {
  bool allowed = false;
  // RBAC's reason: "RBAC: allowed by ClusterRoleBinding \"x\" of ClusterRole \"y\" to Group \"z\"";
  // for a refusal the errors met while resolving the bindings' roles, else "".
  std::string reason;
};

bool is_master(const UserInfo& user);
AuthDecision authorize(const Store& store, const UserInfo& user, const AuthAttributes& attributes);

// rbac.authorization.k8s.io/v1 roles, rolebindings (namespaced), clusterroles,
// clusterrolebindings; authorization.k8s.io/v1 selfsubjectaccessreviews (create only).
std::vector<ResourceType> rbac_types();

// The bootstrap policy kube-apiserver's RBAC post-start hook creates that matters here
// (plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go): ClusterRoles cluster-admin,
// system:discovery and system:basic-user, bound to system:masters and system:authenticated
// by ClusterRoleBindings of the same names. Objects of those names already stored (a seed's)
// are kept.
void bootstrap_rbac(Store& store);

}  // namespace kubesim
